package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class ChunkCodecTest {
    private static final long MASK32 = 0xFFFFFFFFL;

    /** One message as sent or received; equal by content. */
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
            return Arrays.hashCode(payload) ^ csid ^ Long.hashCode(timestamp);
        }

        @Override
        public String toString() {
            return "Msg[csid="
                    + csid
                    + " type="
                    + type
                    + " stream="
                    + streamId
                    + " ts=0x"
                    + Long.toHexString(timestamp)
                    + " len="
                    + payload.length
                    + " hash="
                    + Arrays.hashCode(payload)
                    + "]";
        }
    }

    /**
     * Unpooled buffers, each remembered, so a test can tell what was allocated and whether it was
     * freed.
     */
    static final class CountingAllocator extends AbstractByteBufAllocator {
        final List<ByteBuf> allocated = new ArrayList<>();

        /** The capacity each was allocated with (a freed buffer's reads 0). */
        final List<Integer> capacities = new ArrayList<>();

        CountingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf b = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
            allocated.add(b);
            capacities.add(initialCapacity);
            return b;
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf b = new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity);
            allocated.add(b);
            capacities.add(initialCapacity);
            return b;
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }

        void assertAllReleased() {
            for (ByteBuf b : allocated) {
                assertEquals(0, b.refCnt(), "leaked a buffer of " + b.capacity() + " bytes");
            }
        }
    }

    /** Copies each message out, checking the ownership contract, and releases it. */
    static final class Recorder implements ChunkDecoder.Sink {
        final List<Msg> got = new ArrayList<>();

        @Override
        public void message(int csid, int type, int streamId, long timestamp, ByteBuf payload) {
            assertEquals(1, payload.refCnt());
            assertEquals(0, payload.readerIndex());
            assertEquals(
                    payload.capacity(),
                    payload.writerIndex(),
                    "payload sized exactly to the message");
            assertTrue(timestamp >= 0 && timestamp <= MASK32);
            got.add(new Msg(csid, type, streamId, timestamp, ByteBufUtil.getBytes(payload)));
            payload.release();
        }
    }

    // ---------------------------------------------------------------- property test

    private static final int[] CSIDS = {2, 3, 4, 5, 6, 8, 63, 64, 65, 200, 319, 320, 321, 400};
    private static final int[] MEDIA_TYPES = {
        MessageType.AUDIO, MessageType.VIDEO, MessageType.DATA_AMF0, MessageType.COMMAND_AMF0
    };
    private static final int[] CHUNK_SIZES = {
        1, 3, 64, 128, 1000, 4096, 60000, 0xFFFFFF, 0x7FFFFFFF
    };

    @Test
    void randomSequencesRoundTripWholeByteByByteAndSplit() {
        Random r = new Random(0x6c0ffeeL);
        int messages = 0;
        int extended = 0;
        int wrapped = 0;
        for (int c = 0; c < 300; c++) {
            List<Msg> sent = randomSequence(r);
            byte[] wire = encodeAll(sent);
            String why = "case " + c;
            // direct and heap cumulations take different copying paths
            assertEquals(sent, decode(wire, n -> n, c % 2 == 0), why + " whole");
            assertEquals(sent, decode(wire, n -> 1, c % 2 == 1), why + " byte by byte");
            int max = new int[] {8, 300, 5000, 70000}[r.nextInt(4)];
            Random split = new Random(c);
            assertEquals(
                    sent,
                    decode(wire, n -> 1 + split.nextInt(Math.min(n, max)), c % 3 == 0),
                    why + " split");
            messages += sent.size();
            long[] last = new long[65600];
            Arrays.fill(last, -1);
            for (Msg m : sent) {
                extended += m.timestamp >= 0xFFFFFF ? 1 : 0;
                wrapped += last[m.csid] > 0xFFFFFF00L && m.timestamp < 0x1000 ? 1 : 0;
                last[m.csid] = m.timestamp;
            }
        }
        // the generator must really have reached the interesting corners
        assertTrue(messages > 3000, "messages " + messages);
        assertTrue(extended > 100, "extended timestamps " + extended);
        assertTrue(wrapped > 5, "timestamps wrapping past 2^32 " + wrapped);
    }

    /** Media messages over a few chunk streams, with Set Chunk Size messages among them. */
    private static List<Msg> randomSequence(Random r) {
        int[] pool = new int[1 + r.nextInt(5)];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = r.nextInt(3) == 0 ? 2 + r.nextInt(399) : CSIDS[r.nextInt(CSIDS.length)];
        }
        Map<Integer, Msg> lastOn = new HashMap<>();
        Map<Integer, Long> deltaOn = new HashMap<>();
        List<Msg> out = new ArrayList<>();
        int n = 1 + r.nextInt(30);
        for (int i = 0; i < n; i++) {
            if (r.nextInt(10) == 0) {
                int size =
                        r.nextInt(3) == 0
                                ? 1 + r.nextInt(5000)
                                : CHUNK_SIZES[r.nextInt(CHUNK_SIZES.length)];
                Msg scs =
                        new Msg(
                                2,
                                1,
                                0,
                                r.nextInt(1000),
                                new byte[] {
                                    (byte) (size >>> 24),
                                    (byte) (size >>> 16),
                                    (byte) (size >>> 8),
                                    (byte) size
                                });
                out.add(scs);
                lastOn.put(2, scs);
                continue;
            }
            int csid = pool[r.nextInt(pool.length)];
            Msg prev = lastOn.get(csid);
            int type =
                    prev != null && r.nextInt(3) > 0 && prev.type != MessageType.SET_CHUNK_SIZE
                            ? prev.type
                            : MEDIA_TYPES[r.nextInt(4)];
            int streamId = prev == null || r.nextInt(10) == 0 ? r.nextInt(2) : prev.streamId;
            int length =
                    prev != null && r.nextBoolean()
                            ? prev.payload.length
                            : switch (r.nextInt(3)) {
                                case 0 -> r.nextInt(11);
                                case 1 -> r.nextInt(2001);
                                default -> r.nextInt(20001);
                            };
            long ts;
            if (prev == null) {
                ts =
                        switch (r.nextInt(5)) {
                            case 0 -> 0;
                            case 1 -> r.nextInt(100_000);
                            case 2 -> 0xFFFFFF - 5 + r.nextInt(10);
                            case 3 -> MASK32 - r.nextInt(300);
                            default -> r.nextLong() & MASK32;
                        };
            } else {
                long t = prev.timestamp;
                ts =
                        switch (r.nextInt(12)) {
                            case 0, 1, 2, 3 -> t + deltaOn.getOrDefault(csid, 33L);
                            case 4, 5 -> t + r.nextInt(100);
                            case 6 -> t;
                            case 7 ->
                                    t
                                            + 0xFFFFFF
                                            - 1
                                            + r.nextInt(
                                                    3); // a delta needing the extended field, or
                            // just not
                            case 8 ->
                                    new long[] {
                                                0xFFFFFE,
                                                0xFFFFFF,
                                                0x1000000,
                                                MASK32 - r.nextInt(100)
                                            }
                                            [r.nextInt(4)];
                            case 9 -> t - r.nextInt(1000);
                            default -> t + 20 + r.nextInt(3);
                        };
                ts &= MASK32;
                deltaOn.put(csid, (ts - t) & MASK32);
            }
            byte[] payload = new byte[length];
            r.nextBytes(payload);
            Msg m = new Msg(csid, type, streamId, ts, payload);
            out.add(m);
            lastOn.put(csid, m);
        }
        return out;
    }

    private static byte[] encodeAll(List<Msg> messages) {
        ChunkEncoder encoder = new ChunkEncoder(128);
        ByteBuf out = Unpooled.buffer();
        for (Msg m : messages) {
            encoder.encode(
                    out,
                    m.csid,
                    m.type,
                    m.streamId,
                    m.timestamp,
                    Unpooled.wrappedBuffer(m.payload));
            if (m.type == MessageType.SET_CHUNK_SIZE) {
                encoder.setChunkSize(Unpooled.wrappedBuffer(m.payload).getInt(0));
            }
        }
        return ByteBufUtil.getBytes(out);
    }

    /**
     * Feeds {@code wire} in pieces ({@code piece} maps the bytes left to the next piece's size)
     * through a cumulation buffer handled as the connection handles it.
     */
    private static List<Msg> decode(byte[] wire, IntUnaryOperator piece, boolean direct) {
        CountingAllocator alloc = new CountingAllocator();
        ChunkDecoder decoder =
                new ChunkDecoder(
                        alloc,
                        ChunkDecoder.DEFAULT_MAX_MESSAGE,
                        ChunkDecoder.DEFAULT_MAX_CHUNK_STREAM_ID);
        Recorder sink = new Recorder();
        ByteBuf cumulation = direct ? Unpooled.directBuffer(256) : Unpooled.buffer(256);
        for (int at = 0; at < wire.length; ) {
            int n = piece.applyAsInt(wire.length - at);
            cumulation.writeBytes(wire, at, n);
            at += n;
            decoder.decode(cumulation, sink);
            assertTrue(cumulation.readableBytes() < 18, "only a partial header may stay behind");
            cumulation.discardReadBytes();
        }
        assertEquals(0, cumulation.readableBytes(), "every byte consumed");
        decoder.release();
        alloc.assertAllReleased();
        cumulation.release();
        return sink.got;
    }

    // ---------------------------------------------------------------- write() == encode()

    @Test
    void writeToContextSendsTheSameBytesAsEncodeWithoutTouchingThePayload() {
        Random r = new Random(42);
        for (int c = 0; c < 40; c++) {
            List<Msg> sent = randomSequence(r);
            Capture capture = new Capture();
            EmbeddedChannel channel = new EmbeddedChannel(capture);
            ChunkEncoder encoder = new ChunkEncoder(128);
            List<ByteBuf> payloads = new ArrayList<>();
            for (Msg m : sent) {
                // the readable bytes are the message: put something before and after them
                ByteBuf p = Unpooled.directBuffer(m.payload.length + 7);
                p.writeBytes(new byte[3]).writeBytes(m.payload).writeBytes(new byte[4]);
                p.readerIndex(3).writerIndex(3 + m.payload.length);
                encoder.write(capture.ctx, m.csid, m.type, m.streamId, m.timestamp, p);
                assertEquals(3, p.readerIndex());
                assertEquals(3 + m.payload.length, p.writerIndex());
                if (m.type == MessageType.SET_CHUNK_SIZE) {
                    encoder.setChunkSize(p.getInt(3));
                }
                payloads.add(p);
            }
            assertNull(channel.readOutbound(), "nothing goes out before a flush");
            channel.flush();
            ByteBuf written = Unpooled.buffer();
            for (ByteBuf o; (o = channel.readOutbound()) != null; ) {
                written.writeBytes(o);
                o.release();
            }
            assertArrayEquals(encodeAll(sent), ByteBufUtil.getBytes(written), "case " + c);
            for (ByteBuf p : payloads) {
                assertEquals(1, p.refCnt(), "the channel released every slice it was given");
                p.release();
            }
            channel.finishAndReleaseAll();
        }
    }

    static final class Capture extends ChannelInboundHandlerAdapter {
        ChannelHandlerContext ctx;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }
    }

    @Test
    void headersAreCompressedAgainstTheLastMessageOfTheChunkStream() {
        ChunkEncoder encoder = new ChunkEncoder(4096);
        ByteBuf out = Unpooled.buffer();
        ByteBuf p = Unpooled.wrappedBuffer(new byte[10]);
        int[] fmts = {
            fmt(encoder, out, 9, 1, 1000, p), // first: 0
            fmt(encoder, out, 9, 1, 1033, p), // same length and type, delta unknown to the peer: 2
            fmt(encoder, out, 9, 1, 1066, p), // same delta: 3
            fmt(encoder, out, 9, 1, 1100, p), // delta changed: 2
            fmt(encoder, out, 8, 1, 1134, p), // type changed: 1
            fmt(encoder, out, 8, 1, 1168, p.slice(0, 9)), // length changed: 1
            fmt(encoder, out, 8, 0, 1202, p.slice(0, 9)), // stream changed: 0
            fmt(encoder, out, 8, 0, 1100, p.slice(0, 9)), // backwards: 0
        };
        assertArrayEquals(new int[] {0, 2, 3, 2, 1, 1, 0, 0}, fmts);
    }

    private static int fmt(
            ChunkEncoder encoder, ByteBuf out, int type, int streamId, long ts, ByteBuf p) {
        int at = out.writerIndex();
        encoder.encode(out, 5, type, streamId, ts, p);
        return out.getUnsignedByte(at) >>> 6;
    }

    @Test
    void extendedTimestampIsWrittenInTheHeaderAndRepeatedInEveryContinuationChunk() {
        ChunkEncoder encoder = new ChunkEncoder(128);
        ByteBuf out = Unpooled.buffer();
        // beyond 32 bits: taken modulo 2^32
        encoder.encode(out, 5, 9, 1, 0x1234567890L, Unpooled.wrappedBuffer(new byte[300]));
        Wire expected =
                new Wire()
                        .type0(5, 0xFFFFFF, 300, 9, 1)
                        .int32(0x34567890L)
                        .data(128, 0)
                        .basic(3, 5)
                        .int32(0x34567890L)
                        .data(128, 0)
                        .basic(3, 5)
                        .int32(0x34567890L)
                        .data(44, 0);
        assertArrayEquals(expected.bytes(), ByteBufUtil.getBytes(out));
    }

    @Test
    void basicHeadersTakeOneTwoOrThreeBytes() {
        for (int csid : new int[] {2, 63, 64, 319, 320, 65599}) {
            ChunkEncoder encoder = new ChunkEncoder(128);
            ByteBuf out = Unpooled.buffer();
            encoder.encode(out, csid, 8, 1, 7, Unpooled.EMPTY_BUFFER);
            assertArrayEquals(
                    new Wire().type0(csid, 7, 0, 8, 1).bytes(),
                    ByteBufUtil.getBytes(out),
                    "csid " + csid);
        }
    }

    // ---------------------------------------------------------------- hand-made streams

    /** Builds chunk bytes by hand, independently of ChunkEncoder. */
    static final class Wire {
        final ByteBuf buf = Unpooled.buffer();

        Wire basic(int fmt, int csid) {
            if (csid < 64) {
                buf.writeByte(fmt << 6 | csid);
            } else if (csid < 320) {
                buf.writeByte(fmt << 6).writeByte(csid - 64);
            } else {
                buf.writeByte(fmt << 6 | 1)
                        .writeByte((csid - 64) & 0xFF)
                        .writeByte((csid - 64) >>> 8);
            }
            return this;
        }

        Wire type0(int csid, int ts, int length, int type, int streamId) {
            basic(0, csid)
                    .buf
                    .writeMedium(ts)
                    .writeMedium(length)
                    .writeByte(type)
                    .writeIntLE(streamId);
            return this;
        }

        Wire type1(int csid, int delta, int length, int type) {
            basic(1, csid).buf.writeMedium(delta).writeMedium(length).writeByte(type);
            return this;
        }

        Wire type2(int csid, int delta) {
            basic(2, csid).buf.writeMedium(delta);
            return this;
        }

        Wire int32(long v) {
            buf.writeInt((int) v);
            return this;
        }

        Wire data(int n, int value) {
            for (int i = 0; i < n; i++) {
                buf.writeByte(value);
            }
            return this;
        }

        byte[] bytes() {
            return ByteBufUtil.getBytes(buf);
        }
    }

    private static List<Msg> decodeHandMade(Wire w) {
        List<Msg> whole = decode(w.bytes(), n -> n, true);
        assertEquals(whole, decode(w.bytes(), n -> 1, false), "byte by byte");
        return whole;
    }

    private static byte[] filled(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return b;
    }

    @Test
    void typeThreeStartingAMessageAddsTheLastTimestampField() {
        Wire w =
                new Wire()
                        .type0(4, 100, 3, 8, 1)
                        .data(3, 1)
                        .basic(3, 4)
                        .data(3, 2) // after type 0 the "delta" is its timestamp: 200
                        .type2(4, 40)
                        .data(3, 3) // 240
                        .basic(3, 4)
                        .data(3, 4); // 280
        List<Msg> got = decodeHandMade(w);
        assertEquals(
                List.of(
                        new Msg(4, 8, 1, 100, filled(3, 1)),
                        new Msg(4, 8, 1, 200, filled(3, 2)),
                        new Msg(4, 8, 1, 240, filled(3, 3)),
                        new Msg(4, 8, 1, 280, filled(3, 4))),
                got);
    }

    @Test
    void deltasWrapModulo2To32() {
        Wire w =
                new Wire()
                        .type0(6, 0xFFFFFF, 2, 9, 1)
                        .int32(0xFFFFFFF0L)
                        .data(2, 1)
                        .type2(6, 0x20)
                        .data(2, 2)
                        .type1(6, 0xFFFFFF, 1, 9)
                        .int32(0xFFFFFFFFL)
                        .data(1, 3); // a delta of 2^32-1 is -1
        assertEquals(
                List.of(
                        new Msg(6, 9, 1, 0xFFFFFFF0L, filled(2, 1)),
                        new Msg(6, 9, 1, 0x10, filled(2, 2)),
                        new Msg(6, 9, 1, 0x0F, filled(1, 3))),
                decodeHandMade(w));
    }

    @Test
    void extendedTimestampInContinuationChunksIsAcceptedRepeatedOrNot() {
        long ts = 0x12345678L;
        Wire repeated =
                new Wire()
                        .type0(5, 0xFFFFFF, 300, 9, 1)
                        .int32(ts)
                        .data(128, 1)
                        .basic(3, 5)
                        .int32(ts)
                        .data(128, 2)
                        .basic(3, 5)
                        .int32(ts)
                        .data(44, 3);
        Wire plain =
                new Wire()
                        .type0(5, 0xFFFFFF, 300, 9, 1)
                        .int32(ts)
                        .data(128, 1)
                        .basic(3, 5)
                        .data(128, 2)
                        .basic(3, 5)
                        .data(44, 3);
        byte[] payload = new byte[300];
        Arrays.fill(payload, 0, 128, (byte) 1);
        Arrays.fill(payload, 128, 256, (byte) 2);
        Arrays.fill(payload, 256, 300, (byte) 3);
        List<Msg> expected = List.of(new Msg(5, 9, 1, ts, payload));
        assertEquals(expected, decodeHandMade(repeated));
        assertEquals(expected, decodeHandMade(plain));
    }

    @Test
    void typeThreeStartingAMessageAfterAnExtendedDeltaReadsTheDeltaAgain() {
        // as FFmpeg writes it: same length and type, the 24-bit field 0xFFFFFF both times, new
        // extended value
        Wire w =
                new Wire()
                        .type0(7, 10, 1, 8, 0)
                        .data(1, 1)
                        .type2(7, 0xFFFFFF)
                        .int32(0x1000000)
                        .data(1, 2)
                        .basic(3, 7)
                        .int32(0x1000000)
                        .data(1, 3)
                        .basic(3, 7)
                        .int32(0x2000000)
                        .data(1, 4);
        assertEquals(
                List.of(
                        new Msg(7, 8, 0, 10, filled(1, 1)),
                        new Msg(7, 8, 0, 10 + 0x1000000L, filled(1, 2)),
                        new Msg(7, 8, 0, 10 + 0x2000000L, filled(1, 3)),
                        new Msg(7, 8, 0, 10 + 0x4000000L, filled(1, 4))),
                decodeHandMade(w));
    }

    @Test
    void setChunkSizeTakesEffectForTheNextChunk() {
        Wire w =
                new Wire()
                        .type0(2, 0, 4, 1, 0)
                        .int32(200)
                        .type0(3, 0, 300, 20, 0)
                        .data(200, 7)
                        .basic(3, 3)
                        .data(100, 8);
        byte[] payload = new byte[300];
        Arrays.fill(payload, 0, 200, (byte) 7);
        Arrays.fill(payload, 200, 300, (byte) 8);
        List<Msg> got = decodeHandMade(w);
        assertEquals(
                List.of(
                        new Msg(2, 1, 0, 0, new byte[] {0, 0, 0, (byte) 200}),
                        new Msg(3, 20, 0, 0, payload)),
                got);
    }

    @Test
    void abortDropsThePartialMessage() {
        CountingAllocator alloc = new CountingAllocator();
        ChunkDecoder decoder = new ChunkDecoder(alloc, 1000, 100);
        Recorder sink = new Recorder();
        Wire w =
                new Wire()
                        .type0(4, 0, 300, 9, 1)
                        .data(128, 1) // 172 bytes never come
                        .type0(2, 0, 4, 2, 0)
                        .int32(4) // abort chunk stream 4
                        .type1(4, 40, 2, 8)
                        .data(2, 9); // a new message on it, type 1 allowed again
        decoder.decode(w.buf, sink);
        assertEquals(
                List.of(
                        new Msg(2, 2, 0, 0, new byte[] {0, 0, 0, 4}),
                        new Msg(4, 8, 1, 40, filled(2, 9))),
                sink.got);
        assertEquals(0, alloc.allocated.getFirst().refCnt(), "the aborted payload was released");
        alloc.assertAllReleased();
    }

    @Test
    void releaseFreesPartialMessages() {
        CountingAllocator alloc = new CountingAllocator();
        AssemblyBudget budget = new AssemblyBudget(10_000);
        ChunkDecoder decoder = new ChunkDecoder(alloc, 1000, 100, 2000, budget);
        decoder.decode(
                new Wire()
                        .type0(4, 0, 300, 9, 1)
                        .data(128, 1)
                        .type0(5, 0, 900, 9, 1)
                        .data(50, 2)
                        .buf,
                new Recorder());
        assertEquals(2, alloc.allocated.size());
        assertEquals(178, decoder.pending());
        assertEquals(178, budget.used());
        decoder.release();
        alloc.assertAllReleased();
        assertEquals(0, decoder.pending());
        assertEquals(0, budget.used(), "what the connection held is the others' again");
    }

    // ---------------------------------------------------------------- memory held by incomplete
    // messages

    @Test
    void aMessageHoldsWhatArrivedOfItNotWhatItsHeaderDeclares() {
        CountingAllocator alloc = new CountingAllocator();
        ChunkDecoder decoder = new ChunkDecoder(alloc, ChunkDecoder.DEFAULT_MAX_MESSAGE, 100);
        Recorder sink = new Recorder();
        // 8 MB declared on each of three chunk streams, a 128-byte chunk of two sent and 7 bytes of
        // the third
        decoder.decode(
                new Wire()
                        .type0(3, 0, 8_000_000, 9, 1)
                        .data(128, 1)
                        .type0(4, 0, 8_000_000, 9, 1)
                        .data(128, 2)
                        .type0(5, 0, 8_000_000, 8, 1)
                        .data(7, 3)
                        .buf,
                sink);
        assertEquals(List.of(128, 128, 7), alloc.capacities);
        assertEquals(263, decoder.pending());
        // the rest of that chunk, then 100 bytes more of the first message: each buffer at least
        // doubles
        decoder.decode(new Wire().data(121, 3).basic(3, 3).data(100, 1).buf, sink);
        assertEquals(128 + 128 + 256, decoder.pending());
        decoder.release();
        alloc.assertAllReleased();
        assertEquals(List.of(), sink.got);
    }

    @Test
    void aBufferGrowsToItsMessageAndNoFurtherAndStartsAtTheLastMessageOnItsChunkStream() {
        CountingAllocator alloc = new CountingAllocator();
        ChunkDecoder decoder = new ChunkDecoder(alloc, 100_000, 100);
        Recorder sink = new Recorder();
        Wire w = new Wire().type0(2, 0, 4, 1, 0).int32(1000).type0(6, 0, 3000, 9, 1);
        for (int i = 0; i < 3; i++) {
            if (i > 0) w.basic(3, 6);
            w.data(1000, i);
        }
        decoder.decode(w.buf, sink);
        assertEquals(2, sink.got.size());
        // the chunk size message, then 1000, 2000 and 3000 bytes: the message's length, not 4000
        assertEquals(List.of(4, 1000, 2000, 3000), alloc.capacities);
        assertEquals(0, decoder.pending());
        // a type 3 header starts another 3000-byte message: the peer sent one that long here, so at
        // once
        alloc.capacities.clear();
        decoder.decode(new Wire().basic(3, 6).data(10, 7).buf, sink);
        assertEquals(List.of(3000), alloc.capacities);
        assertEquals(3000, decoder.pending());
        decoder.release();
        alloc.assertAllReleased();
    }

    @Test
    void theBytesAConnectionHoldsInIncompleteMessagesAreBounded() {
        CountingAllocator alloc = new CountingAllocator();
        ChunkDecoder decoder = new ChunkDecoder(alloc, 1000, 100, 1000, null);
        Recorder sink = new Recorder();
        // three 900-byte messages interleaved, 128 bytes at a time: 384 held, then 768
        Wire w =
                new Wire()
                        .type0(3, 0, 900, 9, 1)
                        .data(128, 0)
                        .type0(4, 0, 900, 9, 1)
                        .data(128, 0)
                        .type0(5, 0, 900, 9, 1)
                        .data(128, 0);
        decoder.decode(w.buf, sink);
        assertEquals(384, decoder.pending());
        decoder.decode(
                new Wire()
                        .basic(3, 3)
                        .data(128, 0)
                        .basic(3, 4)
                        .data(128, 0)
                        .basic(3, 5)
                        .data(128, 0)
                        .buf,
                sink);
        assertEquals(768, decoder.pending());
        // the next chunk would double the first one's buffer to 512 bytes: 1024 in all
        RtmpProtocolException e =
                assertThrows(
                        RtmpProtocolException.class,
                        () -> decoder.decode(new Wire().basic(3, 3).data(128, 0).buf, sink));
        assertEquals(
                "incomplete messages would hold 1024 bytes, over the connection's limit of 1000",
                e.getMessage());
        decoder.release();
        alloc.assertAllReleased();
    }

    @Test
    void allConnectionsTogetherHoldNoMoreThanTheirSharedBudget() {
        CountingAllocator alloc = new CountingAllocator();
        AssemblyBudget budget = new AssemblyBudget(1000);
        ChunkDecoder first = new ChunkDecoder(alloc, 1000, 100, 1000, budget);
        ChunkDecoder second = new ChunkDecoder(alloc, 1000, 100, 1000, budget);
        Recorder sink = new Recorder();
        first.decode(
                new Wire().type0(2, 0, 4, 1, 0).int32(600).type0(3, 0, 900, 9, 1).data(600, 0).buf,
                sink);
        assertEquals(600, budget.used());
        RtmpProtocolException e =
                assertThrows(
                        RtmpProtocolException.class,
                        () ->
                                second.decode(
                                        new Wire()
                                                .type0(2, 0, 4, 1, 0)
                                                .int32(500)
                                                .type0(3, 0, 900, 9, 1)
                                                .data(500, 0)
                                                .buf,
                                        sink));
        assertEquals(
                "incomplete messages of all connections would hold more than 1000 bytes (this one holds 0)",
                e.getMessage());
        second.release();
        assertEquals(600, budget.used(), "the first connection's message is untouched");
        // completing the message gives its bytes back: the payload is the sink's now
        first.decode(new Wire().basic(3, 3).data(300, 0).buf, sink);
        assertEquals(0, budget.used());
        assertEquals(900, sink.got.getLast().payload().length);
        first.release();
        alloc.assertAllReleased();
    }

    // ---------------------------------------------------------------- hostile input

    private static RtmpProtocolException rejects(
            CountingAllocator alloc, int maxMessage, int maxCsid, Wire w) {
        ChunkDecoder decoder = new ChunkDecoder(alloc, maxMessage, maxCsid);
        Recorder sink = new Recorder();
        RtmpProtocolException e =
                assertThrows(RtmpProtocolException.class, () -> decoder.decode(w.buf, sink));
        decoder.release();
        alloc.assertAllReleased();
        return e;
    }

    private static String rejectsAllocatingNothing(int maxMessage, int maxCsid, Wire w) {
        CountingAllocator alloc = new CountingAllocator();
        RtmpProtocolException e = rejects(alloc, maxMessage, maxCsid, w);
        assertEquals(List.of(), alloc.allocated, "nothing allocated before the exception");
        return e.getMessage();
    }

    @Test
    void messageOverTheLimitIsRejectedBeforeAllocating() {
        assertEquals(
                "message of 1001 bytes exceeds the limit of 1000",
                rejectsAllocatingNothing(1000, 100, new Wire().type0(3, 0, 1001, 9, 1)));
        assertEquals(
                "message of 16777215 bytes exceeds the limit of 8388608",
                rejectsAllocatingNothing(
                        ChunkDecoder.DEFAULT_MAX_MESSAGE,
                        1024,
                        new Wire().type0(3, 0, 0xFFFFFF, 9, 1)));
        // a type 1 header announcing a long message on a chunk stream already in use
        CountingAllocator alloc = new CountingAllocator();
        RtmpProtocolException e =
                rejects(
                        alloc,
                        1000,
                        100,
                        new Wire()
                                .type0(3, 0, 10, 9, 1)
                                .data(10, 0)
                                .type1(3, 10, 5000, 9)
                                .data(128, 0));
        assertEquals("message of 5000 bytes exceeds the limit of 1000", e.getMessage());
        assertEquals(1, alloc.allocated.size(), "only the first, legitimate message");
    }

    @Test
    void invalidChunkSizesAreRejected() {
        for (long size : new long[] {0, 0x80000001L, 0xFFFFFFFFL}) {
            CountingAllocator alloc = new CountingAllocator();
            RtmpProtocolException e =
                    rejects(alloc, 1000, 100, new Wire().type0(2, 0, 4, 1, 0).int32(size));
            assertEquals("chunk size " + size + " is invalid", e.getMessage());
            assertEquals(1, alloc.allocated.size(), "just the 4-byte message, released");
        }
        assertEquals(
                "protocol control message of type 1 has 5000 bytes instead of 4",
                rejectsAllocatingNothing(1_000_000, 100, new Wire().type0(2, 0, 5000, 1, 0)));
    }

    @Test
    void chunkStreamIdBeyondTheBoundIsRejectedFromTheBasicHeader() {
        assertEquals(
                "chunk stream id 2000 beyond the bound 1024",
                rejectsAllocatingNothing(1000, 1024, new Wire().basic(0, 2000)));
        assertEquals(
                "chunk stream id 200 beyond the bound 100",
                rejectsAllocatingNothing(1000, 100, new Wire().basic(0, 200)));
        assertEquals(
                "chunk stream id 65599 beyond the bound 1024",
                rejectsAllocatingNothing(1000, 1024, new Wire().basic(3, 65599)));
        // the bound itself is fine
        ChunkDecoder decoder = new ChunkDecoder(new CountingAllocator(), 1000, 320);
        Recorder sink = new Recorder();
        decoder.decode(new Wire().type0(320, 5, 1, 9, 1).data(1, 6).buf, sink);
        assertEquals(List.of(new Msg(320, 9, 1, 5, new byte[] {6})), sink.got);
    }

    @Test
    void unknownMessageTypesAreRejected() {
        for (int type : new int[] {0, 7, 10, 21, 23, 255}) {
            assertEquals(
                    "unknown message type " + type,
                    rejectsAllocatingNothing(1000, 100, new Wire().type0(3, 0, 10, type, 1)));
        }
    }

    @Test
    void continuingAChunkStreamThatNeverStartedIsRejected() {
        assertEquals(
                "chunk stream 5 continues a message it never started",
                rejectsAllocatingNothing(1000, 100, new Wire().type1(5, 0, 10, 9)));
        assertEquals(
                "chunk stream 5 continues a message it never started",
                rejectsAllocatingNothing(1000, 100, new Wire().type2(5, 0)));
        assertEquals(
                "chunk stream 300 continues a message it never started",
                rejectsAllocatingNothing(1000, 1000, new Wire().basic(3, 300)));
    }

    @Test
    void aNewHeaderInTheMiddleOfAMessageIsRejected() {
        CountingAllocator alloc = new CountingAllocator();
        RtmpProtocolException e =
                rejects(
                        alloc,
                        1000,
                        100,
                        new Wire().type0(3, 0, 200, 9, 1).data(128, 0).type2(3, 20).data(72, 0));
        assertEquals(
                "chunk stream 3 starts a new message with 72 of 200 bytes of the previous one missing",
                e.getMessage());
    }

    // ---------------------------------------------------------------- allocation in steady state

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /**
     * Runs {@code body} on a Netty thread, as the event loop would, for the allocators' thread
     * caches.
     */
    private static void onNettyThread(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t =
                new FastThreadLocalThread(
                        () -> {
                            try {
                                body.run();
                            } catch (Throwable e) {
                                failure.set(e);
                            }
                        });
        t.start();
        t.join();
        if (failure.get() instanceof Error e) {
            throw e;
        } else if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Tag("allocation")
    @Test
    void decodingAllocatesNothingPerChunk() throws InterruptedException {
        int warmup = 100;
        int measured = 2000; // 20 KB messages in 4 KiB chunks: 10,000 chunks
        ChunkEncoder encoder = new ChunkEncoder(128);
        ByteBuf encoded = Unpooled.buffer((warmup + measured) * 20_010 + 100);
        encoder.encode(encoded, 2, 1, 0, 0, Unpooled.wrappedBuffer(new byte[] {0, 0, 0x10, 0}));
        encoder.setChunkSize(4096);
        ByteBuf payload = Unpooled.wrappedBuffer(new byte[20_000]);
        int warmEnd = 0;
        int chunks = 0;
        for (int i = 0; i < warmup + measured; i++) {
            // lengths and deltas vary a little so type 1, 2 and 3 headers all occur
            int length = 20_000 - i / 7 % 2;
            encoder.encode(encoded, 6, 9, 1, i * 33L + (i & 4), payload.slice(0, length));
            if (i == warmup - 1) {
                warmEnd = encoded.writerIndex();
            } else if (i >= warmup) {
                chunks += (length + 4095) / 4096;
            }
        }
        assertEquals(10_000, chunks);
        int end = encoded.writerIndex();
        int warmed = warmEnd;
        int[] count = new int[1];
        ChunkDecoder.Sink sink =
                (csid, type, streamId, ts, p) -> {
                    count[0]++;
                    p.release();
                };
        // the cumulation as the epoll transport fills it (direct), and a heap one
        for (ByteBuf wire :
                new ByteBuf[] {
                    PooledByteBufAllocator.DEFAULT.directBuffer(end).writeBytes(encoded, 0, end),
                    Unpooled.buffer(end).writeBytes(encoded, 0, end)
                }) {
            long[] perMessage = new long[1];
            onNettyThread(
                    () -> {
                        for (int round = 0;
                                round < 6;
                                round++) { // rounds to let the JIT compile the decoder
                            ChunkDecoder decoder =
                                    new ChunkDecoder(
                                            PooledByteBufAllocator.DEFAULT,
                                            ChunkDecoder.DEFAULT_MAX_MESSAGE,
                                            ChunkDecoder.DEFAULT_MAX_CHUNK_STREAM_ID);
                            count[0] = 0;
                            wire.readerIndex(0).writerIndex(0);
                            feed(wire, warmed, decoder, sink);
                            long before = THREADS.getCurrentThreadAllocatedBytes();
                            feed(wire, end, decoder, sink);
                            long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
                            assertEquals(1 + warmup + measured, count[0]);
                            perMessage[0] = allocated / measured;
                        }
                    });
            System.out.printf(
                    "ChunkDecoder from a %s cumulation: %d bytes of heap allocated per 20 KB message"
                            + " (5 chunks)%n",
                    wire.isDirect() ? "direct" : "heap", perMessage[0]);
            // what remains is Netty's leak detector sampling one buffer in 128; one object per
            // chunk is over
            assertTrue(perMessage[0] < 100, perMessage[0] + " bytes allocated per message");
            wire.release();
        }
    }

    /** Lets the decoder see {@code wire} grow by a TCP segment at a time up to {@code end}. */
    private static void feed(ByteBuf wire, int end, ChunkDecoder decoder, ChunkDecoder.Sink sink) {
        while (wire.writerIndex() < end) {
            wire.writerIndex(Math.min(end, wire.writerIndex() + 1448));
            decoder.decode(wire, sink);
        }
    }

    @Tag("allocation")
    @Test
    void writingAllocatesNothingPerChunk() throws InterruptedException {
        long[] perChunk = new long[1];
        onNettyThread(
                () -> {
                    EmbeddedChannel channel = new EmbeddedChannel();
                    channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
                    Capture capture = new Capture();
                    channel.pipeline()
                            .addLast(
                                    new ChannelOutboundHandlerAdapter() {
                                        @Override
                                        public void write(
                                                ChannelHandlerContext ctx,
                                                Object msg,
                                                ChannelPromise promise) {
                                            ReferenceCountUtil.release(
                                                    msg); // the socket, in a hurry
                                        }
                                    },
                                    capture);
                    ChunkEncoder encoder = new ChunkEncoder(4096);
                    ByteBuf payload =
                            PooledByteBufAllocator.DEFAULT.directBuffer(20_000).writeZero(20_000);
                    int messages = 2000;
                    long chunks = 0;
                    // The last round is measured, the others warm the JIT up: six were too few
                    // once,
                    // in a clean-clone CI (1,590 bytes a chunk: the path not yet compiled)
                    for (int round = 0; round < 20; round++) {
                        long before = THREADS.getCurrentThreadAllocatedBytes();
                        chunks = 0;
                        for (int i = 0; i < messages; i++) {
                            int length = 20_000 - i / 7 % 2;
                            // the payload itself, as a relay passes on what its decoder produced
                            payload.writerIndex(length);
                            encoder.write(
                                    capture.ctx,
                                    6,
                                    9,
                                    1,
                                    (round * messages + i) * 33L + (i & 4),
                                    payload);
                            chunks += (length + 4095) / 4096;
                        }
                        perChunk[0] = (THREADS.getCurrentThreadAllocatedBytes() - before) / chunks;
                    }
                    assertEquals(10_000, chunks);
                    assertEquals(1, payload.refCnt(), "every slice written was released");
                    payload.release();
                    channel.finishAndReleaseAll();
                });
        System.out.printf(
                "ChunkEncoder.write: %d bytes of heap allocated per chunk%n", perChunk[0]);
        assertTrue(perChunk[0] < 40, perChunk[0] + " bytes allocated per chunk");
    }

    @Test
    void theEncoderRejectsWhatRtmpCannotCarry() {
        ChunkEncoder encoder = new ChunkEncoder(128);
        ByteBuf out = Unpooled.buffer();
        ByteBuf empty = Unpooled.EMPTY_BUFFER;
        assertThrows(IllegalArgumentException.class, () -> encoder.encode(out, 1, 9, 1, 0, empty));
        assertThrows(
                IllegalArgumentException.class, () -> encoder.encode(out, 65600, 9, 1, 0, empty));
        ByteBuf tooLong = Unpooled.buffer(1 << 24).writerIndex(1 << 24);
        assertThrows(
                IllegalArgumentException.class, () -> encoder.encode(out, 3, 9, 1, 0, tooLong));
        assertThrows(IllegalArgumentException.class, () -> new ChunkEncoder(0));
        encoder.encode(out, 65599, 9, 1, 0, empty);
        if (out.readableBytes() != 3 + 11) {
            fail("a 3-byte basic header and a type 0 message header: " + ByteBufUtil.hexDump(out));
        }
    }
}
