package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.http.RequestHead;
import org.junit.jupiter.api.Test;

/**
 * The Shoutcast v1 source protocol on a harbor's port + 1, byte by byte, on an embedded channel.
 */
class IcySourceConnectionTest {
    private static final String OK = "OK2\r\nicy-caps:11\r\n\r\n";

    /**
     * A live input that takes user {@code dj} or {@code source} with password {@code pw}, and keeps
     * what it gets; its logins are a real {@link LiveInput}'s, the harbor's only production ingest.
     */
    private static final class Recording implements HarborIngest {
        RequestHead head;
        final StringBuilder stream = new StringBuilder();
        final List<Map<String, String>> titles = new ArrayList<>();

        /** A bug in the input: its title update throws. */
        boolean broken;

        final LiveInput logins =
                new LiveInput(
                        0,
                        "/live",
                        null,
                        (user, password) ->
                                (user.equals("source") || user.equals("dj"))
                                        && password.equals("pw"),
                        1,
                        2,
                        1);

        @Override
        public String path() {
            return "/live";
        }

        @Override
        public Login login(String user, String password) {
            return logins.login(user, password);
        }

        @Override
        public Login icyLogin(String password) {
            return logins.icyLogin(password);
        }

        @Override
        public Session connect(
                RequestHead head,
                String contentType,
                ChannelHandlerContext ctx,
                String peer,
                Login login,
                Answer answer) {
            throw new AssertionError("no browser DJs on the icy port");
        }

        @Override
        public double authTimeout() {
            return 1;
        }

        @Override
        public Session connect(
                RequestHead head, ChannelHandlerContext ctx, String peer, Login login) {
            this.head = head;
            return new Session() {
                @Override
                public void feed(ByteBuf data) {
                    stream.append(data.toString(StandardCharsets.ISO_8859_1));
                    data.release();
                }

                @Override
                public void disconnected() {}
            };
        }

        @Override
        public int adminMetadata(Map<String, String> params) {
            if (broken) throw new IllegalStateException("a bug");
            titles.add(params);
            return 200;
        }
    }

    private final Recording ingest = new Recording();
    private final HarborServer server = server();

    private HarborServer server() {
        HarborServer s = new HarborServer(0, "127.0.0.1", 64 * 1024);
        s.addIngest(ingest);
        s.addIcyIngest(ingest);
        s.callbacks(Runnable::run); // the password check answered on the test's thread
        // one failed login is the limit, so that a counted failure shows at once
        s.limits(
                new HarborLimits(
                        10_000_000_000L,
                        30_000_000_000L,
                        16,
                        16,
                        false,
                        1,
                        60_000_000_000L,
                        30_000_000_000L));
        s.commit();
        return s;
    }

    private EmbeddedChannel connect() {
        return new EmbeddedChannel(new IcySourceConnection(server));
    }

    private static void send(EmbeddedChannel ch, String bytes) {
        ch.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1));
        ch.runPendingTasks();
    }

    private static String written(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            out.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return out.toString();
    }

    private boolean refusedNow() {
        return server.authFailures()
                        .retryAfter(java.net.InetAddress.getLoopbackAddress(), server.limits())
                > 0;
    }

    @Test
    void aWrongPasswordIsAnsweredInvalidClosedAndCounted() {
        EmbeddedChannel ch = connect();
        send(ch, "nope\r\n");
        assertEquals("invalid password\r\n", written(ch));
        assertFalse(ch.isActive());
        assertTrue(refusedNow(), "a failed login counted toward the limit");
        assertEquals(null, ingest.head);
    }

    @Test
    void libshoutsPokeIsAnsweredAsAWrongPasswordWithoutCounting() {
        EmbeddedChannel ch = connect();
        send(ch, "!POKE\nicy-name:libshout server poke request\n\n");
        assertEquals("invalid password\r\n", written(ch));
        assertFalse(ch.isActive());
        assertFalse(refusedNow());
    }

    @Test
    void aClientSendingEverythingAtOnceWithLfLineEndsGetsOkAndStreams() {
        EmbeddedChannel ch = connect();
        send(ch, "pw\nicy-name:Night Show\nicy-genre: jazz\nicy-br:128\n\nMP3DATA");
        assertEquals(OK, written(ch));
        assertNotNull(ingest.head);
        assertEquals(IcySourceConnection.VERSION, ingest.head.version());
        assertEquals("Night Show", ingest.head.header("icy-name"));
        assertEquals("jazz", ingest.head.header("icy-genre"));
        assertEquals(
                "audio/mpeg",
                ingest.head.header("content-type"),
                "Shoutcast v1 is MP3 unless told");
        send(ch, "MORE");
        assertEquals("MP3DATAMORE", ingest.stream.toString());
        assertTrue(ch.isActive());
    }

    @Test
    void aClientWaitingForOkThenSendingItsHeadersByteByByteIsTaken() {
        EmbeddedChannel ch = connect();
        send(ch, "dj:pw\r\n");
        assertEquals(OK, written(ch), "user:password is the harbor's user and password");
        for (char c : "content-type:audio/aacp\r\nicy-name:X\r\n\r\nAAC".toCharArray())
            send(ch, String.valueOf(c));
        assertEquals("audio/aacp", ingest.head.header("content-type"));
        assertEquals("AAC", ingest.stream.toString());
    }

    @Test
    void adminCgiOnTheIcyPortSetsTheTitleWithTheRightPasswordOnly() {
        EmbeddedChannel wrong = connect();
        send(wrong, "GET /admin.cgi?pass=nope&mode=updinfo&song=X HTTP/1.0\r\n\r\n");
        assertTrue(written(wrong).startsWith("HTTP/1.0 401 "));
        assertTrue(ingest.titles.isEmpty());

        server.limits(HarborLimits.DEFAULT); // the one failure is under the default limit of 10
        EmbeddedChannel ok = connect();
        send(
                ok,
                "GET /admin.cgi?pass=pw&mode=updinfo&song=The+Band+-+The+Song HTTP/1.0\r\nUser-Agent: Mozilla\r\n\r\n");
        assertTrue(written(ok).startsWith("HTTP/1.0 200 "));
        assertEquals("The Band - The Song", ingest.titles.getFirst().get("song"));
    }

    @Test
    void aBugInWhatFollowsThePasswordCheckClosesTheConnection() {
        ingest.broken = true;
        EmbeddedChannel ch = connect();
        send(ch, "GET /admin.cgi?pass=pw&mode=updinfo&song=X HTTP/1.0\r\n\r\n");
        assertFalse(ch.isActive(), "not left open without an answer");
    }

    @Test
    void theHarborPortsConnectionCapsApplyAndCountItsConnections() {
        server.limits(
                new HarborLimits(
                        10_000_000_000L,
                        30_000_000_000L,
                        16,
                        1,
                        false,
                        10,
                        60_000_000_000L,
                        30_000_000_000L));
        EmbeddedChannel first = connect();
        assertTrue(first.isActive());
        assertEquals(1, server.openConnections(), "counted with the harbor port's own");
        EmbeddedChannel second = connect();
        assertFalse(
                second.isActive(), "over settings.harbor.maxConnectionsPerAddress: let go at once");
        first.close();
        assertEquals(0, server.openConnections());
        assertTrue(connect().isActive());
    }

    @Test
    void aClientThatSendsNoPasswordWithinTheHeadTimeoutIsClosed() throws Exception {
        server.limits(
                new HarborLimits(
                        50_000_000L,
                        30_000_000_000L,
                        16,
                        16,
                        false,
                        10,
                        60_000_000_000L,
                        30_000_000_000L));
        EmbeddedChannel ch = connect();
        send(ch, "pw"); // no line end yet
        Thread.sleep(100);
        ch.runPendingTasks();
        ch.runScheduledPendingTasks();
        assertFalse(ch.isActive());
        assertEquals(null, ingest.head);
    }

    @Test
    void headerLinesPast16KiBCloseTheConnection() {
        EmbeddedChannel ch = connect();
        send(ch, "pw\r\n");
        written(ch);
        for (int i = 0; i < 2000 && ch.isActive(); i++)
            send(ch, "icy-x" + i + ":" + "y".repeat(20) + "\r\n");
        assertFalse(ch.isActive());
        assertEquals(null, ingest.head);
    }
}
