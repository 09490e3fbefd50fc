package org.groovecast.net.runtime;

import com.sun.management.UnixOperatingSystemMXBean;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A Netty server channel on Vert.x's event loops (native epoll), listening on one of them: a
 * connection costs its socket and its one handler, none of a Vert.x NetSocket's per-connection
 * machinery. The harbor and the RTMP server listen this way.
 */
public final class ServerChannels {
    private ServerChannels() {}

    /**
     * Binds {@code address:port}; each connection gets a handler from {@code handler}. {@code
     * options} may set more child options (water marks).
     */
    public static Future<Channel> bind(
            Vertx vertx,
            String address,
            int port,
            Consumer<ServerBootstrap> options,
            Supplier<ChannelHandler> handler) {
        return bind(vertx, address, port, false, options, handler);
    }

    /**
     * As {@link #bind(Vertx, String, int, Consumer, Supplier)}; with {@code oneLoop} all the port's
     * connections are served by one event loop (see {@link VertxInternals#serverBootstrap(Vertx,
     * boolean)}).
     */
    public static Future<Channel> bind(
            Vertx vertx,
            String address,
            int port,
            boolean oneLoop,
            Consumer<ServerBootstrap> options,
            Supplier<ChannelHandler> handler) {
        OpenConnections open = OpenConnections.of(vertx);
        ServerBootstrap b =
                VertxInternals.serverBootstrap(vertx, oneLoop)
                        .option(ChannelOption.SO_BACKLOG, 1024)
                        .option(ChannelOption.SO_REUSEADDR, true)
                        .childOption(ChannelOption.TCP_NODELAY, true)
                        .childHandler(
                                new ChannelInitializer<>() {
                                    @Override
                                    protected void initChannel(Channel ch) {
                                        open.add(ch);
                                        ch.pipeline().addLast(handler.get());
                                    }
                                });
        b.handler(new AcceptErrors("port " + port));
        options.accept(b);
        Promise<Channel> bound = Promise.promise();
        b.bind(address, port)
                .addListener(
                        f -> {
                            if (f.isSuccess()) bound.complete(((ChannelFuture) f).channel());
                            else bound.fail(f.cause());
                        });
        return bound.future();
    }

    /** The process's open-file limit, or -1 where the platform does not tell. */
    public static long maxFileDescriptors() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean u
                ? u.getMaxFileDescriptorCount()
                : -1;
    }

    /**
     * Stops accepting (open connections are closed by {@link NetRuntime#close}); done at once for
     * null, and for a channel whose event loop is gone (it closed with it, and could not tell a
     * listener any more).
     */
    public static Future<Void> close(Channel server) {
        Promise<Void> closed = Promise.promise();
        if (server == null || server.eventLoop().isShuttingDown()) closed.complete();
        else server.close().addListener(f -> closed.complete());
        return closed.future();
    }
}
