package org.groovecast.net.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
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

    /** The event loops that served {@code n} connections to a port bound with {@code oneLoop}. */
    private static Set<EventLoop> loopsServing(NetRuntime runtime, boolean oneLoop, int n)
            throws Exception {
        LinkedBlockingQueue<EventLoop> servedOn = new LinkedBlockingQueue<>();
        Channel server =
                ServerChannels.bind(
                                runtime.vertx(),
                                "127.0.0.1",
                                0,
                                oneLoop,
                                b -> {},
                                () ->
                                        new ChannelInboundHandlerAdapter() {
                                            @Override
                                            public void channelActive(ChannelHandlerContext ctx) {
                                                servedOn.add(ctx.channel().eventLoop());
                                            }
                                        })
                        .await();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        List<Socket> sockets = new ArrayList<>();
        Set<EventLoop> loops = new HashSet<>();
        try {
            for (int i = 0; i < n; i++) {
                sockets.add(new Socket("127.0.0.1", port));
                loops.add(servedOn.poll(5, TimeUnit.SECONDS));
            }
            if (oneLoop) assertEquals(Set.of(server.eventLoop()), loops, "the listening loop");
        } finally {
            for (Socket s : sockets) s.close();
            ServerChannels.close(server).await();
        }
        return loops;
    }

    @Test
    void aPortOnOneLoopServesEveryConnectionThereOthersSpreadThem() throws Exception {
        NetRuntime runtime = NetRuntime.start(2);
        try {
            assertEquals(1, loopsServing(runtime, true, 4).size(), "one loop");
            assertEquals(2, loopsServing(runtime, false, 4).size(), "both loops, in turn");
        } finally {
            runtime.close();
        }
    }
}
