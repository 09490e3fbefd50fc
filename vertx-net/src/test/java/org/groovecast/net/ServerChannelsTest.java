package org.groovecast.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Listening on every event loop (SO_REUSEPORT) without ever sharing a port with a stranger. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServerChannelsTest {
    /** Answers each connection with the name of the event loop thread that accepted it, then closes. */
    static final class LoopName extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ByteBuf name = Unpooled.copiedBuffer(Thread.currentThread().getName() + "\n", StandardCharsets.UTF_8);
            ctx.writeAndFlush(name).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Test
    void eachEventLoopAcceptsItsOwnConnections() throws Exception {
        try (NetRuntime net = NetRuntime.start(2)) {
            ListeningPort port = ServerChannels.bind(net.vertx(), "127.0.0.1", 0, b -> { }, LoopName::new).await();
            assertEquals(2, port.channels(), "one listening socket per event loop on epoll");
            Set<String> loops = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 200 && loops.size() < 2; i++) loops.add(request(port.port()));
            assertEquals(2, loops.size(), "the kernel spreads connections over both loops: " + loops);
            port.close().await();
            assertThrows(IOException.class, () -> request(port.port()), "closed: nothing listens any more");
        }
    }

    @Test
    void aPortSomeoneElseListensOnIsRefusedEvenWithReusePort() throws Exception {
        try (NetRuntime first = NetRuntime.start(2); NetRuntime second = NetRuntime.start(2)) {
            ListeningPort taken = ServerChannels.bind(first.vertx(), "127.0.0.1", 0, b -> { }, LoopName::new).await();
            // The kernel would let a second SO_REUSEPORT group of the same user join and take half the connections.
            Exception e = assertThrows(Exception.class,
                    () -> ServerChannels.bind(second.vertx(), "127.0.0.1", taken.port(), b -> { }, LoopName::new).await());
            assertTrue(e.getMessage().contains("port " + taken.port() + " is taken"), e.getMessage());
            taken.close().await();
            try (ServerSocket plain = new ServerSocket(0)) {
                assertThrows(Exception.class,
                        () -> ServerChannels.bind(second.vertx(), "127.0.0.1", plain.getLocalPort(), b -> { }, LoopName::new).await());
            }
        }
    }

    private static String request(int port) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port); InputStream in = s.getInputStream()) {
            s.setSoTimeout(5000);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }
}
