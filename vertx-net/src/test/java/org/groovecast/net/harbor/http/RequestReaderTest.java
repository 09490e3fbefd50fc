package org.groovecast.net.harbor.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.http.RequestReader.Step;
import org.groovecast.net.harbor.http.RequestReader.Wait;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The request-head state machine alone: bytes in, steps and deadlines out, on a clock moved by
 * hand.
 */
class RequestReaderTest {
    private static final long SECOND = 1_000_000_000L;

    /** A 2 s head timeout and a 3 s idle one, so that each deadline says which it is. */
    private static final HarborLimits LIMITS =
            new HarborLimits(
                    2 * SECOND, 3 * SECOND, 4096, 256, false, 10, 60 * SECOND, 30 * SECOND);

    private long now = 1000 * SECOND;
    private final RequestReader reader = new RequestReader(() -> now);

    @AfterEach
    void tearDown() {
        reader.release();
    }

    private void add(String bytes) {
        ByteBuf in = Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1);
        reader.add(UnpooledByteBufAllocator.DEFAULT, in, LIMITS);
        in.release(); // as the connection does: the reader keeps a copy
    }

    @Test
    void aHeadInPiecesIsMoreUntilItsBlankLineThenTheHead() {
        for (String piece : new String[] {"GET /a?x=1 HT", "TP/1.1\r\nHost: y\r\n", "\r"}) {
            add(piece);
            assertEquals(Step.MORE, reader.next(LIMITS), "after " + piece);
        }
        add("\n");

        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertEquals("GET", reader.head().method());
        assertEquals("/a", reader.head().path());
        assertEquals("1", reader.head().query().get("x"));
        assertEquals("y", reader.head().header("host"));
        assertEquals(Step.MORE, reader.next(LIMITS));
        assertFalse(reader.hasBytes());
    }

    @Test
    void pipelinedRequestsComeOneAfterTheOtherWithTheirBodies() {
        add(
                "GET /1 HTTP/1.1\r\n\r\nPOST /2 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /3 HTTP/1.0\r\n\r\nGET /4");

        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertEquals("/1", reader.head().path());
        assertTrue(reader.expectBody(1000));
        assertEquals(Step.BODY, reader.next(LIMITS), "no Content-Length: an empty body, at once");
        assertArrayEquals(new byte[0], reader.takeBody());
        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertEquals("/2", reader.head().path());
        assertTrue(reader.expectBody(1000));
        assertEquals(Step.BODY, reader.next(LIMITS));
        assertArrayEquals("abc".getBytes(StandardCharsets.ISO_8859_1), reader.takeBody());
        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertEquals("/3", reader.head().path());
        assertEquals("HTTP/1.0", reader.head().version());
        // A head that is no ordinary request (a listener's, say) reads no body: the next head
        // follows.
        assertEquals(Step.MORE, reader.next(LIMITS), "the fourth head is not complete");
        assertEquals(Wait.HEAD, reader.waiting());
    }

    @Test
    void aBodyInPiecesIsMoreUntilItIsWhole() {
        add("POST /x HTTP/1.1\r\nContent-Length: 6\r\n\r\nGET");
        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertTrue(reader.expectBody(6));
        assertEquals(Step.MORE, reader.next(LIMITS));
        assertEquals(Wait.BODY, reader.waiting());
        add(" /\r\n\r\n");

        assertEquals(Step.BODY, reader.next(LIMITS));
        assertArrayEquals(
                "GET /\r".getBytes(StandardCharsets.ISO_8859_1),
                reader.takeBody(),
                "a body is bytes, never a head");
        assertEquals(Step.MORE, reader.next(LIMITS));
        assertEquals(Wait.HEAD, reader.waiting(), "\\n\\r\\n begins a head");
    }

    private static String headOf(int size) {
        String start = "GET / HTTP/1.1\r\nX: ";
        return start + "a".repeat(size - start.length());
    }

    @Test
    void aHeadMayHave16KiBBeforeItsBlankLineNotOneMore() {
        add(headOf(RequestReader.MAX_HEAD));
        assertEquals(Step.MORE, reader.next(LIMITS), "16 KiB without an end: not yet too long");
        add("\r\n\r\n");
        assertEquals(Step.HEAD, reader.next(LIMITS));

        add("GET /before HTTP/1.1\r\n\r\n" + headOf(RequestReader.MAX_HEAD) + "\r\n\r\n");
        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertEquals(
                Step.HEAD,
                reader.next(LIMITS),
                "16 KiB counted from where the head begins, behind another");

        add(headOf(RequestReader.MAX_HEAD + 1) + "\r\n\r\n");
        assertEquals(Step.REFUSED, reader.next(LIMITS), "a whole head, one byte too long");
        assertEquals(431, reader.status());
        assertEquals("request head over 16 KiB", reader.message());
    }

    @Test
    void aHeadWithoutEndPast16KiBIsRefusedAsSoonAsItIs() {
        add(headOf(RequestReader.MAX_HEAD) + "\r\n\r");
        assertEquals(Step.REFUSED, reader.next(LIMITS));
        assertEquals(431, reader.status());
    }

    @Test
    void aMalformedHeadIsRefusedWith400AndWhy() {
        add("GET /x HTTP/1.1\r\nBad header\r\n\r\n");
        assertEquals(Step.REFUSED, reader.next(LIMITS));
        assertEquals(400, reader.status());
        assertEquals("bad header line", reader.message());
    }

    @Test
    void aBodyThatCannotBeReadIsRefusedWithItsStatus() {
        String[][] cases = {
            {
                "Transfer-Encoding: chunked",
                "411",
                "chunked request bodies are not accepted; send a Content-Length"
            },
            {"Content-Length: 101", "413", "request body over 100 bytes"},
            {"Content-Length: -1", "400", "negative Content-Length"},
            {"Content-Length: 1x", "400", "bad Content-Length 1x"},
        };
        for (String[] c : cases) {
            RequestReader r = new RequestReader(() -> now);
            ByteBuf in =
                    Unpooled.copiedBuffer(
                            "POST /x HTTP/1.1\r\n" + c[0] + "\r\n\r\n",
                            StandardCharsets.ISO_8859_1);
            r.add(UnpooledByteBufAllocator.DEFAULT, in, LIMITS);
            in.release();
            assertEquals(Step.HEAD, r.next(LIMITS));
            assertFalse(r.expectBody(100), c[0]);
            assertEquals(Integer.parseInt(c[1]), r.status(), c[0]);
            assertEquals(c[2], r.message());
            r.release();
        }
        add("POST /x HTTP/1.1\r\nContent-Length: 100\r\n\r\n");
        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertTrue(reader.expectBody(100), "a body of maxBody is taken");
    }

    // ---------------------------------------------------------------- deadlines

    @Test
    void aHeadBegunIsGivenTheHeadTimeoutFromItsFirstByteThen408() {
        reader.await(Wait.HEAD, LIMITS.headTimeoutNanos()); // as a connection begins
        long opened = now;
        now += SECOND;
        add("GET / HT");
        assertEquals(Step.MORE, reader.next(LIMITS));
        assertEquals(
                opened + 2 * SECOND,
                reader.deadline(),
                "the connection's head timeout, not restarted by the bytes");
        now += SECOND - 1;
        assertEquals(Step.MORE, reader.overdue(LIMITS));
        now += 1;

        assertEquals(Step.REFUSED, reader.overdue(LIMITS));
        assertEquals(408, reader.status());
        assertEquals(
                "request head not complete within 2 s (settings.harbor.headTimeout)",
                reader.message());
    }

    @Test
    void aConnectionThatSentNothingIsClosedQuietly() {
        reader.await(Wait.HEAD, LIMITS.headTimeoutNanos());
        now += 2 * SECOND;
        assertEquals(Step.QUIET, reader.overdue(LIMITS));
    }

    @Test
    void afterARequestTheIdleTimeoutThenTheHeadTimeoutFromTheNextHeadsFirstByte() {
        add("GET / HTTP/1.1\r\n\r\n");
        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertEquals(Step.MORE, reader.next(LIMITS));
        assertEquals(Wait.IDLE, reader.waiting());
        assertEquals(now + 3 * SECOND, reader.deadline());

        now += 2 * SECOND;
        add("G");
        assertEquals(Step.MORE, reader.next(LIMITS));
        assertEquals(Wait.HEAD, reader.waiting());
        assertEquals(now + 2 * SECOND, reader.deadline());

        RequestReader idle = new RequestReader(() -> now);
        idle.await(Wait.IDLE, LIMITS.idleTimeoutNanos());
        now += 3 * SECOND;
        assertEquals(Step.QUIET, idle.overdue(LIMITS), "idle keep-alive: closed without an answer");
    }

    @Test
    void eachByteOfABodyGivesItTheIdleTimeoutAgainThen408() {
        add("POST /x HTTP/1.1\r\nContent-Length: 3\r\n\r\n");
        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertTrue(reader.expectBody(100));
        assertEquals(Step.MORE, reader.next(LIMITS));
        for (int i = 0; i < 2; i++) {
            now += 2 * SECOND;
            add("b");
            assertEquals(now + 3 * SECOND, reader.deadline());
            assertEquals(Step.MORE, reader.next(LIMITS));
        }
        now += 3 * SECOND;

        assertEquals(Step.REFUSED, reader.overdue(LIMITS));
        assertEquals(408, reader.status());
        assertEquals(
                "request body stalled for 3 s (settings.harbor.idleTimeout)", reader.message());
    }

    @Test
    void aConnectionWaitingForNothingIsNeverOverdue() {
        reader.await(Wait.HEAD, LIMITS.headTimeoutNanos());
        reader.stopWaiting();
        now += 3600 * SECOND;
        assertEquals(Step.MORE, reader.overdue(LIMITS));
    }

    @Test
    void whatCameBehindAHeadIsHandedOverWhole() {
        add("SOURCE /live HTTP/1.0\r\n\r\nstream bytes");
        assertEquals(Step.HEAD, reader.next(LIMITS));
        ByteBuf rest = reader.handOver();
        assertEquals("stream bytes", rest.toString(StandardCharsets.ISO_8859_1));
        rest.release();
        assertFalse(reader.hasBytes());

        add("GET /ws HTTP/1.1\r\n\r\n");
        assertEquals(Step.HEAD, reader.next(LIMITS));
        assertNull(reader.retainedRest(), "nothing after the head");
        add("frame");
        ByteBuf frame = reader.retainedRest();
        assertEquals("frame", frame.toString(StandardCharsets.ISO_8859_1));
        frame.release();
    }
}
