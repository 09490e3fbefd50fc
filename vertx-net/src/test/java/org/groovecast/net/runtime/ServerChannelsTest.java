package org.groovecast.net.runtime;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server channel listens on an event loop, so that a connection accepted there starts on a loop
 * without being handed over from another thread (which cost a request per connection a tenth of the
 * harbor's rate).
 */
class ServerChannelsTest {
    @Test
    void connectionsAreAcceptedOnTheEventLoopThatServesThem() throws Exception {
        NetRuntime runtime = NetRuntime.start(1);
        try {
            CompletableFuture<EventLoop> servedOn = new CompletableFuture<>();
            Channel server =
                    ServerChannels.bind(
                                    runtime.vertx(),
                                    "127.0.0.1",
                                    0,
                                    b -> {},
                                    () ->
                                            new ChannelInboundHandlerAdapter() {
                                                @Override
                                                public void channelActive(
                                                        ChannelHandlerContext ctx) {
                                                    servedOn.complete(ctx.channel().eventLoop());
                                                }
                                            })
                            .await();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            try (Socket s = new Socket("127.0.0.1", port)) {
                EventLoop loop = servedOn.get(5, TimeUnit.SECONDS);
                // One event loop: the connection's loop is the runtime's only one. The listening
                // channel on Vert.x's acceptor thread would be on another.
                assertSame(loop, server.eventLoop(), "the listening channel's loop serves it");
            }
        } finally {
            runtime.close();
        }
    }
}
