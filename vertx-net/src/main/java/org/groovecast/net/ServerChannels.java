package org.groovecast.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Netty server channels on Vert.x's event loops (native epoll): a connection costs its socket and
 * its one handler, none of a Vert.x NetSocket's per-connection machinery. The harbor and the RTMP
 * server listen this way.
 *
 * <p>On epoll every event loop gets its own listening socket on the port (SO_REUSEPORT): the
 * kernel spreads new connections over them and each loop accepts and serves its own, where a
 * single acceptor thread would accept each one and hand it to a loop (a queued task and a wakeup
 * per connection, which is what a close-per-request load pays for). {@code
 * -Dgroovecast.net.reusePort=false} keeps the single acceptor.
 */
public final class ServerChannels {
    private static final boolean REUSE_PORT = !"false".equals(System.getProperty("groovecast.net.reusePort"));

    private ServerChannels() {
    }

    /**
     * Binds {@code address:port}; each connection gets a handler from {@code handler}.
     * {@code options} may set more child options (water marks). Fails when the port is taken,
     * also by another process that shares it with SO_REUSEPORT.
     */
    public static Future<ListeningPort> bind(Vertx vertx, String address, int port, Consumer<ServerBootstrap> options,
                                             Supplier<ChannelHandler> handler) {
        VertxInternal v = (VertxInternal) vertx;
        List<EventLoop> loops = new ArrayList<>();
        for (EventExecutor e : v.nettyEventLoopGroup()) loops.add((EventLoop) e);
        // NetRuntime takes epoll whenever it can; only its sockets have SO_REUSEPORT.
        boolean perLoop = REUSE_PORT && loops.size() > 1 && vertx.isNativeTransportEnabled() && Epoll.isAvailable();
        AcceptErrors errors = new AcceptErrors("port " + port);
        if (!perLoop) {
            return bindOne(bootstrap(v.acceptorEventLoopGroup(), v.nettyEventLoopGroup(), v, errors, options, handler),
                    address, port).map(ch -> new ListeningPort(List.of(ch)));
        }
        if (port != 0 && taken(address, port)) {
            return Future.failedFuture(new BindException("port " + port + " is taken (Address already in use)"));
        }
        // The first socket fixes the port (the kernel picks it for 0); the others join it.
        Promise<ListeningPort> bound = Promise.promise();
        List<Channel> channels = new ArrayList<>();
        bindNext(v, loops, 0, address, port, errors, options, handler, channels, bound);
        return bound.future();
    }

    private static void bindNext(VertxInternal v, List<EventLoop> loops, int i, String address, int port,
                                 AcceptErrors errors, Consumer<ServerBootstrap> options, Supplier<ChannelHandler> handler, List<Channel> channels,
                                 Promise<ListeningPort> bound) {
        if (i == loops.size()) {
            bound.complete(new ListeningPort(channels));
            return;
        }
        ServerBootstrap b = bootstrap(loops.get(i), loops.get(i), v, errors, options, handler)
                .option(EpollChannelOption.SO_REUSEPORT, true);
        bindOne(b, address, port).onComplete(r -> {
            if (r.succeeded()) {
                channels.add(r.result());
                int actual = ((InetSocketAddress) r.result().localAddress()).getPort();
                bindNext(v, loops, i + 1, address, actual, errors, options, handler, channels, bound);
            } else {
                new ListeningPort(channels).close();
                bound.fail(r.cause());
            }
        });
    }

    private static ServerBootstrap bootstrap(EventLoopGroup acceptor, EventLoopGroup children, VertxInternal v,
                                             AcceptErrors errors, Consumer<ServerBootstrap> options, Supplier<ChannelHandler> handler) {
        ServerBootstrap b = new ServerBootstrap()
                .group(acceptor, children)
                .channelFactory(v.transport().serverChannelFactory(false))
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(handler.get());
                    }
                });
        b.handler(errors);
        options.accept(b);
        return b;
    }

    private static Future<Channel> bindOne(ServerBootstrap b, String address, int port) {
        Promise<Channel> bound = Promise.promise();
        b.bind(address, port).addListener(f -> {
            if (f.isSuccess()) bound.complete(((ChannelFuture) f).channel());
            else bound.fail(f.cause());
        });
        return bound.future();
    }

    /**
     * Whether a plain socket cannot bind the port: SO_REUSEPORT would let this process join another
     * one's listening group (same user), splitting its listeners between two stations unnoticed.
     */
    private static boolean taken(String address, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(address, port));
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** The process's open-file limit, or -1 where the platform does not tell. */
    public static long maxFileDescriptors() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean u
                ? u.getMaxFileDescriptorCount() : -1;
    }

    /**
     * Stops accepting (open connections close with the event loops); done at once for null, and for
     * a channel whose event loop is gone (it closed with it, and could not tell a listener any more).
     */
    public static Future<Void> close(Channel server) {
        Promise<Void> closed = Promise.promise();
        if (server == null || server.eventLoop().isShuttingDown()) closed.complete();
        else server.close().addListener(f -> closed.complete());
        return closed.future();
    }
}
