package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.groovecast.net.fuzz.EscapeProbe;
import org.groovecast.net.fuzz.Pieces;
import org.groovecast.net.fuzz.QuietLogs;
import org.groovecast.net.fuzz.TrackingAllocator;
import org.groovecast.net.harbor.http.RequestHead;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * A harbor's Shoutcast v1 source port ({@link IcySourceConnection}) fed any bytes, in pieces.
 * Invariants: nothing escapes the connection; what it writes is {@code OK2}, {@code invalid
 * password} or an HTTP answer (admin.cgi); it holds at most 2 N + 64 KiB after N bytes and has
 * released every buffer once closed. Seeds under {@code IcySourceFuzzTestInputs/icySource/}: the
 * protocol as a raw client and libshout send it, title updates, wrong passwords, garbage.
 */
class IcySourceFuzzTest {
    private static QuietLogs quiet;

    @BeforeAll
    static void setUp() {
        quiet = new QuietLogs();
    }

    @AfterAll
    static void tearDown() throws Exception {
        quiet.close();
    }

    /**
     * A live input taking password {@code hackme} (or {@code dj:hackme}) that throws the stream
     * away.
     */
    private record Discarding(String path) implements HarborIngest {
        @Override
        public Login login(String user, String password) {
            return password.equals("hackme") ? Login.allowed(user) : Login.refused(user);
        }

        @Override
        public double authTimeout() {
            return 1;
        }

        @Override
        public Session connect(
                RequestHead head, ChannelHandlerContext ctx, String peer, Login login) {
            return new Session() {
                @Override
                public void feed(ByteBuf data) {
                    data.release();
                }

                @Override
                public void disconnected() {}
            };
        }

        @Override
        public int adminMetadata(Map<String, String> params) {
            return params.containsKey("song") ? 200 : 400;
        }

        @Override
        public Login icyLogin(String password) {
            return login("source", password);
        }

        @Override
        public Session connect(
                RequestHead head,
                String contentType,
                ChannelHandlerContext ctx,
                String peer,
                Login login,
                Answer answer) {
            answer.refuse(403, "this mount takes no browser DJs");
            return null;
        }
    }

    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void icySource(byte[] bytes) throws Exception {
        TrackingAllocator alloc = new TrackingAllocator();
        HarborServer server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        Discarding in = new Discarding("/live");
        server.addIngest(in);
        server.addIcyIngest(in);
        server.callbacks(Runnable::run);
        server.commit();
        IcySourceConnection connection = new IcySourceConnection(server);
        EscapeProbe probe = new EscapeProbe(connection);
        EmbeddedChannel channel = new EmbeddedChannel(false, false, probe, connection);
        channel.config().setAllocator(alloc);
        channel.register();
        try {
            long[] fed = {0};
            Pieces.feed(
                    bytes,
                    piece -> {
                        if (!channel.isActive()) return false;
                        fed[0] += piece.length;
                        channel.writeInbound(alloc.directBuffer(piece.length).writeBytes(piece));
                        channel.runPendingTasks();
                        probe.rethrow();
                        drain(channel);
                        long held = alloc.live();
                        assertTrue(
                                held <= 2 * fed[0] + 64 * 1024,
                                "holds " + held + " bytes after " + fed[0] + " bytes in");
                        return true;
                    });
        } finally {
            channel.close();
            channel.runPendingTasks();
            drain(channel);
        }
        alloc.assertAllReleased("after the connection closed");
    }

    private static void drain(EmbeddedChannel channel) {
        Object o;
        while ((o = channel.readOutbound()) != null) {
            try {
                if (!(o instanceof ByteBuf b)) {
                    fail("wrote a " + o.getClass().getName());
                    return;
                }
                String text = b.toString(StandardCharsets.ISO_8859_1);
                if (!text.equals("OK2\r\nicy-caps:11\r\n\r\n")
                        && !text.equals("invalid password\r\n")
                        && !text.matches("(?s)HTTP/1\\.[01] [1-5][0-9][0-9] [A-Za-z ]+\r\n.*")) {
                    fail(
                            "an answer the protocol does not have: "
                                    + text.replace("\r", "\\r").replace("\n", "\\n"));
                }
            } finally {
                ReferenceCountUtil.release(o);
            }
        }
    }
}
