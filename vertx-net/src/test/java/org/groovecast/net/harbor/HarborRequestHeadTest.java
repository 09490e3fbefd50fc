package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.groovecast.net.fuzz.QuietLogs;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.RequestReader;
import org.groovecast.net.harbor.http.Route;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The harbor's request parsing through its real handler ({@link HarborConnection}) on an {@link
 * EmbeddedChannel}: heads in pieces, pipelined requests, the size caps and the deadlines, each
 * answer asserted byte for byte as the port sends it.
 */
class HarborRequestHeadTest {
    /** Short deadlines, so that the tests of them wait a fraction of a second. */
    private static final long TIMEOUT_NANOS = 200_000_000L;

    private QuietLogs quiet;
    private HarborServer server;

    @BeforeEach
    void setUp() {
        quiet = new QuietLogs(); // the refusals below are logged at INFO; nothing to see in a test
        // run
        server = new HarborServer(0, "127.0.0.1", 1000);
        server.addRoute(new Route("GET", "/ping", req -> HttpReply.text(200, "pong")));
        server.addRoute(
                new Route(
                        "GET", "/echo-query", req -> HttpReply.text(200, req.query().toString())));
        server.addRoute(
                new Route(
                        "POST",
                        "/echo",
                        req ->
                                new HttpReply(
                                        200, "application/octet-stream", Map.of(), req.data())));
        server.callbacks(Runnable::run);
        server.commit();
    }

    @AfterEach
    void tearDown() throws Exception {
        quiet.close();
    }

    private EmbeddedChannel connect() {
        return new EmbeddedChannel(new HarborConnection(server));
    }

    private static void send(EmbeddedChannel ch, String bytes) {
        ch.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1));
        ch.runPendingTasks();
    }

    /** Everything written back so far, as text. */
    private static String read(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            out.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return out.toString();
    }

    private String exchange(String request) {
        EmbeddedChannel ch = connect();
        send(ch, request);
        String answer = read(ch);
        assertFalse(ch.isOpen(), "closed after " + answer);
        ch.finishAndReleaseAll();
        return answer;
    }

    /** An error answer as the harbor writes it: HTTP/1.1, plain text, closing. */
    private static String refusal(int status, String reason, String message) {
        return "HTTP/1.1 "
                + status
                + " "
                + reason
                + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + (message.length() + 1)
                + "\r\nConnection: close\r\n\r\n"
                + message
                + "\n";
    }

    private static String pong(boolean keepAlive) {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 4\r\n"
                + (keepAlive ? "" : "Connection: close\r\n")
                + "\r\npong";
    }

    @Test
    void aHeadArrivingByteByByteIsAnsweredOnceItsBlankLineCame() {
        EmbeddedChannel ch = connect();
        String request = "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        for (int i = 0; i < request.length() - 1; i++) {
            send(ch, request.substring(i, i + 1));
            assertEquals("", read(ch), "answered after " + (i + 1) + " bytes");
            assertTrue(ch.isOpen());
        }
        send(ch, request.substring(request.length() - 1));

        assertEquals(pong(false), read(ch));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderOnOneConnection() {
        EmbeddedChannel ch = connect();
        send(
                ch,
                "GET /echo-query?n=1 HTTP/1.1\r\n\r\nPOST /echo HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /echo-query?n=3 HTTP/1.1\r\n\r\nGET /pi");

        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n\r\n{n=1}"
                        + "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 5\r\n\r\nhello"
                        + "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n\r\n{n=3}",
                read(ch));
        assertTrue(ch.isOpen(), "kept alive, the fourth request begun");

        send(ch, "ng HTTP/1.1\r\nConnection: close\r\n\r\n");
        assertEquals(pong(false), read(ch));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void aBodyInPiecesIsWaitedForAndNotTakenAsTheNextHead() {
        EmbeddedChannel ch = connect();
        send(ch, "POST /echo HTTP/1.1\r\nContent-Length: 9\r\n\r\nGET ");
        send(ch, "/ x");
        assertEquals("", read(ch), "answered before the body is complete");
        send(ch, "yzGET /ping HTTP/1.1\r\n\r\n");

        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 9\r\n\r\nGET / xyz"
                        + pong(true),
                read(ch));
        assertTrue(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    /** A request head of exactly {@code size} bytes before its blank line. */
    private static String headOf(int size) {
        String start = "GET /ping HTTP/1.1\r\nConnection: close\r\nX-Pad: ";
        return start + "a".repeat(size - start.length()) + "\r\n\r\n";
    }

    @Test
    void aHeadOf16KiBIsTakenAndOneByteMoreIs431AndTheEnd() {
        assertEquals(pong(false), exchange(headOf(RequestReader.MAX_HEAD)));
        assertEquals(
                pong(true) + pong(false),
                exchange("GET /ping HTTP/1.1\r\n\r\n" + headOf(RequestReader.MAX_HEAD)),
                "16 KiB from where the head begins, behind another");
        assertEquals(
                refusal(431, "Request Header Fields Too Large", "request head over 16 KiB"),
                exchange(headOf(RequestReader.MAX_HEAD + 1)));
    }

    @Test
    void aHeadThatGrowsOver16KiBWithoutEndingIs431AsSoonAsItDoes() {
        EmbeddedChannel ch = connect();
        String head = "GET /ping HTTP/1.1\r\nX-Pad: ";
        send(ch, head);
        send(ch, "a".repeat(RequestReader.MAX_HEAD - head.length()));
        assertEquals("", read(ch), "16 KiB without an end yet: waited for");
        assertTrue(ch.isOpen());
        send(ch, "a");

        assertEquals(
                refusal(431, "Request Header Fields Too Large", "request head over 16 KiB"),
                read(ch));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void aMalformedRequestLineIs400AndWhatCameBehindItIsNotAnswered() {
        assertEquals(
                refusal(400, "Bad Request", "bad request line"),
                exchange("GARBAGE\r\n\r\nGET /ping HTTP/1.1\r\n\r\n"));
        assertEquals(
                refusal(400, "Bad Request", "bad HTTP version"),
                exchange("GET /ping HTTP/2.0\r\n\r\n"));
        assertEquals(
                refusal(400, "Bad Request", "bad Content-Length x"),
                exchange("POST /echo HTTP/1.1\r\nContent-Length: x\r\n\r\n"));
    }

    @Test
    void aChunkedBodyIs411AndNoLengthAtAllIsAnEmptyBody() {
        assertEquals(
                refusal(
                        411,
                        "Length Required",
                        "chunked request bodies are not accepted; send a Content-Length"),
                exchange(
                        "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"));
        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 0\r\n"
                        + "Connection: close\r\n\r\n",
                exchange("POST /echo HTTP/1.1\r\nConnection: close\r\n\r\n"));
    }

    @Test
    void aBodyOverMaxBodyIs413AndOneOfItIsTaken() {
        assertEquals(
                refusal(413, "Content Too Large", "request body over 1000 bytes"),
                exchange("POST /echo HTTP/1.1\r\nContent-Length: 1001\r\n\r\n"));
        String body = "b".repeat(1000);
        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n"
                        + "Connection: close\r\n\r\n"
                        + body,
                exchange(
                        "POST /echo HTTP/1.1\r\nConnection: close\r\nContent-Length: 1000\r\n\r\n"
                                + body));
    }

    // ---------------------------------------------------------------- deadlines

    private void shortDeadlines(long nanos) {
        server.limits(
                new HarborLimits(
                        nanos, nanos, 4096, 256, false, 10, 60_000_000_000L, 30_000_000_000L));
    }

    /** Lets {@code millis} pass, then runs the loop's timers that came due. */
    private static void after(EmbeddedChannel ch, long millis) throws InterruptedException {
        Thread.sleep(millis);
        ch.runPendingTasks();
    }

    @Test
    void aHeadNotCompleteWithinTheHeadTimeoutIs408() throws Exception {
        shortDeadlines(TIMEOUT_NANOS);
        EmbeddedChannel ch = connect();
        send(ch, "GET /pi");
        after(ch, 300);

        assertEquals(
                refusal(
                        408,
                        "Request Timeout",
                        "request head not complete within 0.2 s (settings.harbor.headTimeout)"),
                read(ch));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }

    @Test
    void aConnectionThatSendsNothingIsClosedWithoutAnAnswer() throws Exception {
        shortDeadlines(5 * TIMEOUT_NANOS); // 1 s: room for a busy machine before the first look
        EmbeddedChannel ch = connect();
        after(ch, 100);
        assertTrue(ch.isOpen(), "within its head timeout");
        after(ch, 1000);

        assertFalse(ch.isOpen());
        assertEquals("", read(ch));
        ch.finishAndReleaseAll();
    }

    @Test
    void aKeepAliveConnectionIdleForTheIdleTimeoutIsClosedWithoutAnAnswer() throws Exception {
        shortDeadlines(TIMEOUT_NANOS);
        EmbeddedChannel ch = connect();
        send(ch, "GET /ping HTTP/1.1\r\n\r\n");
        assertEquals(pong(true), read(ch));
        after(ch, 300);

        assertFalse(ch.isOpen());
        assertEquals("", read(ch));
        ch.finishAndReleaseAll();
    }

    @Test
    void aBodyIsGivenTheIdleTimeoutAfterEachOfItsBytesThenIs408() throws Exception {
        shortDeadlines(5 * TIMEOUT_NANOS);
        EmbeddedChannel ch = connect();
        send(ch, "POST /echo HTTP/1.1\r\nContent-Length: 5\r\n\r\nh");
        for (String b : new String[] {"e", "l", "l"}) {
            after(ch, 500); // half the timeout: the bytes keep the body alive well past one timeout
            // in all
            assertTrue(ch.isOpen());
            send(ch, b);
        }
        assertEquals("", read(ch));
        after(ch, 1200);

        assertEquals(
                refusal(
                        408,
                        "Request Timeout",
                        "request body stalled for 1 s (settings.harbor.idleTimeout)"),
                read(ch));
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();
    }
}
