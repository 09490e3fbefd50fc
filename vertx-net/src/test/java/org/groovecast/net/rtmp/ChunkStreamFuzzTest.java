package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.groovecast.net.fuzz.EscapeProbe;
import org.groovecast.net.fuzz.Pieces;
import org.groovecast.net.fuzz.QuietLogs;
import org.groovecast.net.fuzz.TrackingAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * What an RTMP client sends after the handshake, from anyone: the chunk stream with its protocol
 * control messages, AMF0 commands (type 20) and AMF3 ones (type 17), data and media messages. Seeds
 * are chunk streams captured from ffmpeg publishing and playing, and hand-made ones
 * (bench/fuzz/rtmp_seeds.py) for what ffmpeg never sends.
 *
 * <p>Memory: after N bytes in, the buffers held (by the decoder, or by the whole connection with
 * its published stream) never exceed {@link #HELD_FACTOR} N + {@link #HELD_SLACK}: a payload may
 * grow by doubling, as Netty's buffers do, but a header alone must not make it allocate what the
 * peer has not sent.
 */
class ChunkStreamFuzzTest {
    static final int HELD_FACTOR = 2;
    static final int HELD_SLACK = 64 * 1024;
    private static final long MASK32 = 0xFFFFFFFFL;

    private static QuietLogs quiet;

    @BeforeAll
    static void quiet() throws Exception {
        quiet = new QuietLogs();
        new ChunkStreamFuzzTest()
                .connection(new byte[0]); // classes loaded here, not in the first input's 5 s
    }

    @AfterAll
    static void restore() {
        quiet.close();
    }

    /** One message as delivered; equal by content. */
    record Msg(int csid, int type, int streamId, long timestamp, byte[] payload) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Msg m
                    && csid == m.csid
                    && type == m.type
                    && streamId == m.streamId
                    && timestamp == m.timestamp
                    && Arrays.equals(payload, m.payload);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(payload);
        }
    }

    record Outcome(List<Msg> messages, String error) {}

    /**
     * {@link ChunkDecoder} alone, used as its contract says: the same messages whether the stream
     * comes whole or in pieces through a cumulation, only {@link RtmpProtocolException} as an
     * error, each payload handed over whole (refCnt 1, its exact length), under 18 bytes left
     * unread, bounded holding, and nothing left allocated after {@link ChunkDecoder#release()}.
     */
    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void decoder(byte[] stream) {
        Outcome whole = decode(stream, false);
        Outcome split = decode(stream, true);
        assertEquals(whole.messages, split.messages, "the same messages whole and in pieces");
        assertEquals(whole.error, split.error, "the same verdict whole and in pieces");
    }

    private static Outcome decode(byte[] stream, boolean inPieces) {
        TrackingAllocator alloc = new TrackingAllocator();
        ChunkDecoder decoder =
                new ChunkDecoder(
                        alloc,
                        ChunkDecoder.DEFAULT_MAX_MESSAGE,
                        ChunkDecoder.DEFAULT_MAX_CHUNK_STREAM_ID);
        List<Msg> got = new ArrayList<>();
        ChunkDecoder.Sink sink =
                (csid, type, streamId, timestamp, payload) -> {
                    assertEquals(1, payload.refCnt(), "a payload is the sink's alone");
                    assertEquals(0, payload.readerIndex());
                    assertEquals(
                            payload.capacity(),
                            payload.writerIndex(),
                            "a payload is exactly its message");
                    assertTrue(timestamp >= 0 && timestamp <= MASK32, "timestamp " + timestamp);
                    assertTrue(
                            csid >= 2 && csid <= ChunkDecoder.DEFAULT_MAX_CHUNK_STREAM_ID,
                            "chunk stream " + csid);
                    got.add(
                            new Msg(
                                    csid,
                                    type,
                                    streamId,
                                    timestamp,
                                    ByteBufUtil.getBytes(payload)));
                    payload.release();
                };
        // whole: straight from a heap buffer; in pieces: through a direct cumulation, as on a
        // socket
        ByteBuf cumulation = inPieces ? alloc.directBuffer(64) : Unpooled.wrappedBuffer(stream);
        String error = null;
        try {
            if (inPieces) {
                long[] fed = {0};
                Pieces.feedAll(
                        stream,
                        piece -> {
                            fed[0] += piece.length;
                            cumulation.writeBytes(piece);
                            decoder.decode(cumulation, sink);
                            assertTrue(
                                    cumulation.readableBytes() < 18,
                                    cumulation.readableBytes() + " bytes left unread");
                            cumulation.discardReadBytes();
                            assertHeld(alloc.live() - cumulation.capacity(), fed[0]);
                        });
            } else {
                decoder.decode(cumulation, sink);
                assertTrue(
                        cumulation.readableBytes() < 18,
                        cumulation.readableBytes() + " bytes left unread");
                assertHeld(alloc.live(), stream.length);
            }
        } catch (RtmpProtocolException e) {
            error = e.getMessage();
        } finally {
            decoder.release();
            cumulation.release();
        }
        alloc.assertAllReleased("after release()");
        return new Outcome(got, error);
    }

    /**
     * {@link RtmpConnection} on a channel, past a simple handshake: whatever the client sends, the
     * connection answers with a well-formed chunk stream (each of its commands readable AMF0),
     * fails only with its protocol error (anything else escapes to the {@link EscapeProbe}), holds
     * bounded memory, and once closed has released every buffer, its published stream's caches
     * included.
     */
    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void connection(byte[] chunks) throws Exception {
        TrackingAllocator alloc = new TrackingAllocator();
        RtmpConnection connection = new RtmpConnection(new RtmpServer(0, "127.0.0.1"));
        EscapeProbe probe = new EscapeProbe(connection);
        EmbeddedChannel channel = new EmbeddedChannel(false, false, probe, connection);
        channel.config().setAllocator(alloc);
        channel.register();
        Replies replies = new Replies(alloc);
        try {
            byte[] handshake = new byte[1 + 2 * Handshake.SIZE]; // C0, a simple C1, C2
            handshake[0] = 3;
            read(channel, probe, alloc, handshake);
            replies.drain(channel);
            long[] fed = {0};
            Pieces.feed(
                    chunks,
                    piece -> {
                        if (!channel.isActive()) return false;
                        fed[0] += piece.length;
                        read(channel, probe, alloc, piece);
                        replies.drain(channel);
                        assertHeld(alloc.live() - replies.held(), fed[0] + handshake.length);
                        return true;
                    });
        } finally {
            channel.close();
            channel.runPendingTasks();
            replies.drain(channel);
            replies.release();
        }
        alloc.assertAllReleased("after the connection closed");
    }

    /**
     * One read, as the socket delivers it; the tasks it queued run after it, as on an event loop.
     */
    private static void read(
            EmbeddedChannel channel, EscapeProbe probe, TrackingAllocator alloc, byte[] bytes) {
        channel.writeInbound(alloc.directBuffer(bytes.length).writeBytes(bytes));
        channel.runPendingTasks();
        probe.rethrow();
    }

    /** What the server wrote, checked as a client would read it: S0+S1+S2, then chunks. */
    private static final class Replies {
        private final ByteBuf bytes;
        private final ChunkDecoder decoder;
        private boolean handshakeSeen;

        Replies(TrackingAllocator alloc) {
            bytes = alloc.heapBuffer(4096);
            decoder =
                    new ChunkDecoder(
                            alloc,
                            ChunkDecoder.DEFAULT_MAX_MESSAGE,
                            ChunkDecoder.DEFAULT_MAX_CHUNK_STREAM_ID);
        }

        void drain(EmbeddedChannel channel) {
            Object o;
            while ((o = channel.readOutbound()) != null) {
                try {
                    if (o instanceof ByteBuf b)
                        bytes.writeBytes(b, b.readerIndex(), b.readableBytes());
                } finally {
                    ReferenceCountUtil.release(o);
                }
            }
            if (!handshakeSeen) {
                if (bytes.readableBytes() < 1 + 2 * Handshake.SIZE) return;
                assertEquals(3, bytes.readByte(), "S0");
                bytes.skipBytes(2 * Handshake.SIZE);
                handshakeSeen = true;
            }
            try {
                decoder.decode(
                        bytes,
                        (csid, type, streamId, timestamp, payload) -> {
                            try {
                                // commands are the server's own; data messages may be a
                                // publisher's, relayed as they came
                                if (type == MessageType.COMMAND_AMF0) Amf0.readAll(payload);
                            } finally {
                                payload.release();
                            }
                        });
            } catch (RtmpProtocolException e) {
                throw new AssertionError(
                        "the server wrote what a client cannot read: " + e.getMessage());
            }
            bytes.discardReadBytes();
        }

        long held() {
            return bytes.capacity();
        }

        void release() {
            decoder.release();
            bytes.release();
        }
    }

    private static void assertHeld(long held, long fed) {
        assertTrue(
                held <= HELD_FACTOR * fed + HELD_SLACK,
                "holds " + held + " bytes after " + fed + " bytes in");
    }
}
