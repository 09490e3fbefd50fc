package org.groovecast.net.harbor;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The harbor ports of a process running many stations: each station declares its own harbor on a
 * port, and the harbors of one port number share one listening socket ({@link SharedPort}), each
 * serving its own mounts. A port is made when a first station declares it and forgotten when its
 * last station leaves.
 */
public final class HarborPorts {
    private final ToIntFunction<String> rank;
    private final Map<Integer, SharedPort> ports = new HashMap<>();

    /**
     * @param rank a station's place in the process's list (the command line's order): the first
     *     station on a port serves what no station claims alone (see {@link SharedPort#serverFor})
     */
    public HarborPorts(ToIntFunction<String> rank) {
        this.rank = rank;
    }

    /**
     * A new harbor of {@code station} on {@code port} (not 0: each asking for an ephemeral port
     * gets its own), sharing the port with the other stations' harbors on it.
     */
    public synchronized HarborServer harbor(int port, String bind, int maxBody, String station) {
        if (port == 0) throw new IllegalArgumentException("port 0 is never shared");
        HarborServer h = new HarborServer(port, bind, maxBody);
        ports.computeIfAbsent(port, p -> new SharedPort(p, this)).add(h, station, rank(station));
        return h;
    }

    private int rank(String station) {
        int r = rank.applyAsInt(station);
        return r < 0 ? Integer.MAX_VALUE : r;
    }

    /** The port's last harbor left: a station declaring it again starts a new one. */
    synchronized void forget(SharedPort port) {
        ports.remove(port.port(), port);
    }
}
