package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.util.IllegalReferenceCountException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.groovecast.net.fuzz.Pieces;
import org.groovecast.net.fuzz.QuietLogs;
import org.groovecast.net.fuzz.TrackingAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * {@link FlvTagReader} on any byte stream, as output.rtmp feeds it what its FLV encoder writes: it
 * either cuts out tags or says "not an FLV stream" / "FLV tag of N bytes" (its
 * IllegalStateException), the same tags whether the bytes come whole or in pieces, holding no more
 * than the unread bytes (plus its 64 KiB start) and releasing everything.
 */
class FlvTagReaderFuzzTest {
    private static QuietLogs quiet;

    @BeforeAll
    static void quiet() {
        quiet = new QuietLogs();
    }

    @AfterAll
    static void restore() {
        quiet.close();
    }

    record Tag(int type, long timestamp, byte[] body) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Tag t
                    && type == t.type
                    && timestamp == t.timestamp
                    && Arrays.equals(body, t.body);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(body);
        }
    }

    record Outcome(List<Tag> tags, String error) {}

    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void tags(byte[] stream) {
        Outcome whole = read(stream, false);
        Outcome split = read(stream, true);
        assertEquals(whole.tags, split.tags, "the same tags whole and in pieces");
        assertEquals(
                whole.error != null, split.error != null, "the same verdict whole and in pieces");
    }

    private static Outcome read(byte[] stream, boolean inPieces) {
        TrackingAllocator alloc = new TrackingAllocator();
        FlvTagReader reader = new FlvTagReader(alloc);
        List<Tag> tags = new ArrayList<>();
        FlvTagReader.Sink sink =
                m -> {
                    ByteBuf p = m.payload();
                    tags.add(new Tag(m.type(), m.timestamp(), ByteBufUtil.getBytes(p)));
                    assertEquals(1, p.refCnt(), "a tag's payload is the sink's alone");
                    p.release();
                };
        String error = null;
        long[] fed = {0};
        try {
            if (inPieces) {
                Pieces.feedAll(
                        stream,
                        piece -> {
                            fed[0] += piece.length;
                            feed(reader, alloc, piece, sink);
                            assertHeld(alloc, fed[0]);
                        });
            } else {
                feed(reader, alloc, stream, sink);
                assertHeld(alloc, stream.length);
            }
        } catch (IllegalStateException e) {
            if (e instanceof IllegalReferenceCountException) throw e;
            error = e.getMessage();
            assertTrue(
                    error.startsWith("not an FLV stream") || error.startsWith("FLV tag of"), error);
        } finally {
            reader.release();
        }
        alloc.assertAllReleased("after release()");
        return new Outcome(tags, error);
    }

    private static void feed(
            FlvTagReader reader, TrackingAllocator alloc, byte[] bytes, FlvTagReader.Sink sink) {
        ByteBuf in = alloc.buffer(Math.max(1, bytes.length)).writeBytes(bytes);
        try {
            reader.read(in, sink);
            assertEquals(bytes.length, in.readableBytes(), "the caller's buffer is left as it was");
        } finally {
            in.release();
        }
    }

    /**
     * What the reader keeps: the bytes not yet cut into tags, in a buffer that at most doubles,
     * from 64 KiB.
     */
    private static void assertHeld(TrackingAllocator alloc, long fed) {
        long held = alloc.live();
        assertTrue(
                held <= 64 * 1024 + 2 * fed, "holds " + held + " bytes after " + fed + " were fed");
    }
}
