package org.groovecast.net.control;

import org.groovecast.net.harbor.HarborServer;

/**
 * Where the control operators put their servers: a station's ports, which {@code Network} holds and
 * implements this for. An interface of control's own, so that control depends on the harbor it
 * serves through and not on the package that wires it all.
 */
public interface ControlPorts {
    /** Adds a telnet server; throws IllegalArgumentException when its port has one already. */
    void addTelnet(TelnetServer telnet);

    /** The harbor on {@code port}, created on first use. */
    HarborServer harbor(int port);
}
