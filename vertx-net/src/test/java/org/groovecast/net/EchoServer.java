package org.groovecast.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.net.listening.ListeningServer;
import org.groovecast.net.runtime.ServerChannels;

/**
 * A protocol the engine does not know, as a newcomer would add one: a class implementing {@link
 * ListeningServer}, declared through {@link Network#declare}. It echoes what it reads.
 */
public final class EchoServer implements ListeningServer {
    private final int port;
    private final AtomicInteger connections = new AtomicInteger();
    private volatile Channel server;

    public EchoServer(int port) {
        this.port = port;
    }

    @Override
    public String protocol() {
        return "echo";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public int actualPort() {
        Channel s = server;
        return s == null ? port : ((InetSocketAddress) s.localAddress()).getPort();
    }

    @Override
    public boolean isListening() {
        return server != null;
    }

    @Override
    public Future<?> listen(Vertx vertx, String defaultBind) {
        return ServerChannels.bind(vertx, defaultBind, port, b -> {}, Echo::new)
                .map(
                        ch -> {
                            server = ch;
                            return null;
                        });
    }

    @Override
    public Future<Void> close() {
        Channel s = server;
        server = null;
        return ServerChannels.close(s);
    }

    @Override
    public void readings(Readings readings) {
        readings.reading("connections", "connections open", connections.get());
    }

    private final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            connections.incrementAndGet();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            connections.decrementAndGet();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }
}
