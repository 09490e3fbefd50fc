package org.groovecast.net.icecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The answer to output.shoutcast's password: read as it arrives, bounded, and quoted in the error;
 * against a tiny fake Shoutcast server on loopback.
 */
class ShoutcastAnswerTest {
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private static Buffer ascii(String s) {
        return Buffer.buffer(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void aLineSplitAcrossChunksIsReadOnceItEnds() {
        ShoutcastAnswer a = new ShoutcastAnswer();
        assertNull(a.feed(ascii("O")));
        assertNull(a.feed(ascii("K")));
        assertEquals("OK2", a.feed(ascii("2\r\nicy-caps:11\r\n")));
    }

    @Test
    void aLineOfExactlyTheLimitIsTakenOneByteMoreIsAProtocolError() {
        assertEquals(
                "x".repeat(ShoutcastAnswer.MAX),
                new ShoutcastAnswer().feed(ascii("x".repeat(ShoutcastAnswer.MAX) + "\n")));
        ShoutcastAnswer a = new ShoutcastAnswer();
        for (int i = 0; i < ShoutcastAnswer.MAX; i++) assertNull(a.feed(ascii("y")));
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> a.feed(ascii("y")));
        assertTrue(e.getMessage().contains("no line end within 1024 bytes"), e.getMessage());
    }

    @Test
    void megabytesWithoutALineEndFailFastInsteadOfBeingDecodedAgainAndAgain() {
        ShoutcastAnswer a = new ShoutcastAnswer();
        Buffer chunk = ascii("z".repeat(100));
        // Before: every chunk appended to an unbounded buffer, all of it decoded again (quadratic).
        assertTimeoutPreemptively(
                Duration.ofSeconds(2),
                () ->
                        assertThrows(
                                IllegalStateException.class,
                                () -> {
                                    for (int i = 0; i < 100_000; i++) a.feed(chunk);
                                }));
    }

    /**
     * A fake server on loopback that answers the password line with {@code answer}; returns what
     * handshake() threw.
     */
    private IllegalStateException handshakeAgainst(Buffer answer) throws Exception {
        NetServer server =
                vertx.createNetServer().connectHandler(s -> s.handler(b -> s.write(answer)));
        int port = server.listen(0, "127.0.0.1").await().actualPort();
        IcecastTarget target =
                new IcecastTarget(
                        "127.0.0.1",
                        port,
                        "source",
                        "pw",
                        "/",
                        "audio/mpeg",
                        "",
                        "",
                        "",
                        "",
                        false);
        Promise<IllegalStateException> thrown = Promise.promise();
        Thread.ofVirtual()
                .start(
                        () -> {
                            try {
                                NetSocket s =
                                        vertx.createNetClient().connect(port, "127.0.0.1").await();
                                Promise<Void> ended = Promise.promise();
                                s.closeHandler(v -> ended.tryComplete());
                                new ShoutcastProtocol(port)
                                        .handshake(
                                                s,
                                                ended.future(),
                                                target,
                                                128,
                                                5_000_000_000L,
                                                "5");
                                thrown.fail("the handshake succeeded");
                            } catch (IllegalStateException e) {
                                thrown.complete(e);
                            } catch (Throwable e) {
                                thrown.fail(e);
                            }
                        });
        return thrown.future().await();
    }

    @Test
    void aServerSendingNoLineEndIsAProtocolErrorNotAGrowingBuffer() throws Exception {
        IllegalStateException e = handshakeAgainst(ascii("A".repeat(64 * 1024)));
        assertTrue(e.getMessage().contains("no line end within 1024 bytes"), e.getMessage());
    }

    @Test
    void aRefusalIsQuotedEscapedAndCutShortInTheError() throws Exception {
        IllegalStateException e =
                handshakeAgainst(
                        ascii(
                                "denied \u001b[31m\"x\" 12:00 WARN forged"
                                        + "q".repeat(900)
                                        + "\r\n"));
        String m = e.getMessage();
        assertTrue(
                m.startsWith(
                        "the server refused the source password (\"denied \\x1b[31m\\\"x\\\" 12:00 WARN forged"),
                m);
        assertTrue(m.endsWith("\"...)"), m);
        assertTrue(m.length() < 300, "cut short: " + m.length());
    }
}
