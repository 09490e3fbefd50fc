package org.groovecast.net.runtime;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

/**
 * The one place that reaches into Vert.x's internal API, so that a Vert.x upgrade that moves it
 * breaks here and nowhere else. Why at all: the harbor and the RTMP server bind Netty server
 * channels of their own on Vert.x's event loops (one inline handler per connection, see
 * docs/decisions/0001), which needs the loops and the transport's channel factory; the Icecast and
 * RTMP clients write pre-encoded buffers straight to their socket's Netty context, watching the
 * kernel take them, which Vert.x's public {@code NetSocket} does not expose.
 */
public final class VertxInternals {
    private VertxInternals() {}

    /**
     * A server bootstrap on {@code vertx}'s event loops, with its native transport. The listening
     * socket is on an event loop too, not on Vert.x's acceptor thread: a connection accepted there
     * had to be handed to its loop (a task queued and the loop woken), which with a request per
     * connection cost the harbor about a tenth of its rate (static file with Connection: close, 64
     * connections: 0.88x and 0.97x nginx with the acceptor thread, 1.05x and 1.04x without;
     * bench/README). A flood of connections does not starve the loop it is accepted on: Netty
     * accepts at most 16 per wake-up before serving the loop's other channels. With {@code oneLoop}
     * every connection it accepts is served by the one event loop it listens on, the next of the
     * group when it binds; without, they are spread over all of them.
     */
    public static ServerBootstrap serverBootstrap(Vertx vertx, boolean oneLoop) {
        VertxInternal v = (VertxInternal) vertx;
        EventLoopGroup all = v.nettyEventLoopGroup();
        EventLoopGroup served = oneLoop ? all.next() : all;
        return new ServerBootstrap()
                .group(served, served)
                .channelFactory(v.transport().serverChannelFactory(false));
    }

    /** The Netty buffer under a Vert.x buffer a socket handed us: read in place, not copied. */
    public static ByteBuf byteBuf(Buffer buffer) {
        return ((BufferInternal) buffer).getByteBuf();
    }

    /** The Netty context under a Vert.x client socket. */
    public static ChannelHandlerContext context(NetSocket socket) {
        return ((NetSocketInternal) socket).channelHandlerContext();
    }
}
