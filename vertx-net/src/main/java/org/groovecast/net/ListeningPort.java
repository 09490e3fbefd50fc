package org.groovecast.net;

import io.netty.channel.Channel;
import io.vertx.core.Future;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A bound port: one listening channel per event loop when the kernel balances accepts between
 * them (SO_REUSEPORT), else one on the acceptor loop.
 */
public final class ListeningPort {
    private final List<Channel> channels;

    ListeningPort(List<Channel> channels) {
        this.channels = List.copyOf(channels);
    }

    /** The port bound (the one the kernel chose when 0 was asked). */
    public int port() {
        return ((InetSocketAddress) channels.get(0).localAddress()).getPort();
    }

    /** How many listening channels share the port. */
    public int channels() {
        return channels.size();
    }

    /** Stops accepting on every channel; open connections close with the event loops. */
    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        for (Channel c : channels) closing.add(ServerChannels.close(c));
        return Future.join(closing).mapEmpty();
    }
}
