package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * Splits outgoing RTMP messages into chunks, compressing each message's header against the last
 * message sent on the same chunk stream.
 *
 * <p><b>Ownership.</b> Neither method changes the payload's indices or takes the caller's
 * reference: the caller still owns {@code payload} afterwards and releases it when it likes. {@link
 * #write} hands the channel retained slices of it (one per chunk), so a message fanned out to many
 * connections is never copied; the channel releases them once written. {@link #encode} copies the
 * payload into {@code out} and retains nothing.
 *
 * <p><b>Header choice</b>, per chunk stream: type 0 for its first message, when the message stream
 * id changes, or when the timestamp goes backwards (compared modulo 2^32 as serial numbers, so a
 * clock passing 2^32 ms wraps forward with a small delta instead of resetting); type 1 when the
 * length or message type changes; type 2 when only the timestamp delta differs from the previous
 * one; type 3 when everything including the delta repeats. A type 3 header never directly follows a
 * type 0 one for a new message, because readers disagree on what the delta after a type 0 header
 * is; a type 2 header settles it. Timestamps and deltas of 0xFFFFFF and above go in the extended
 * field, which is repeated in every type 3 chunk of the message, as FFmpeg and nginx-rtmp write it
 * and {@link ChunkDecoder} accepts it.
 *
 * <p><b>Chunk size.</b> Send the Set Chunk Size message through this encoder first, then call
 * {@link #setChunkSize}: the message itself goes out at the old size, as the peer expects.
 *
 * <p>Messages are written whole, one after the other: chunks of different messages are not
 * interleaved. Not thread-safe: one encoder per connection, used on its event loop.
 */
public final class ChunkEncoder {
    private static final long MASK32 = 0xFFFFFFFFL;
    private static final int EXTENDED = 0xFFFFFF;
    private static final int MAX_CSID = 65599;
    private static final int[] MESSAGE_HEADER = {11, 7, 3, 0};

    /** The last message sent on a chunk stream, which the next header is compressed against. */
    private static final class ChunkStream {
        boolean used;
        int length;
        int typeId;
        int streamId;
        long timestamp;

        /** Whether {@code delta} is one the peer knows: false right after a type 0 header. */
        boolean deltaKnown;

        long delta;
    }

    private ChunkStream[] streams = new ChunkStream[16];
    private int chunkSize;
    // The header chosen by prepare(), for the write that follows it; fields so nothing is
    // allocated.
    private int fmt;
    private long field;

    /**
     * @param chunkSize the chunk size to start with (the peer must agree: 128 until told otherwise)
     */
    public ChunkEncoder(int chunkSize) {
        setChunkSize(chunkSize);
    }

    /** Applies to the next message; send the Set Chunk Size message before calling this. */
    public void setChunkSize(int chunkSize) {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunk size " + chunkSize);
        }
        this.chunkSize = chunkSize;
    }

    public int chunkSize() {
        return chunkSize;
    }

    /**
     * Writes the message to {@code ctx} as chunks without copying and without flushing: one buffer
     * from {@code ctx.alloc()} holds all the message's chunk headers and goes out in slices between
     * retained slices of {@code payload}'s readable bytes. Call on the channel's event loop.
     *
     * @param timestamp milliseconds, taken modulo 2^32
     */
    public void write(
            ChannelHandlerContext ctx,
            int csid,
            int typeId,
            int streamId,
            long timestamp,
            ByteBuf payload) {
        int length = payload.readableBytes();
        prepare(csid, typeId, streamId, timestamp, length);
        boolean extended = field >= EXTENDED;
        int continuation = basicHeaderSize(csid) + (extended ? 4 : 0);
        int first = continuation + MESSAGE_HEADER[fmt];
        int chunks = chunks(length);
        ByteBuf headers = ctx.alloc().buffer(first + (chunks - 1) * continuation);
        header(headers, csid, typeId, streamId, length, extended);
        for (int i = 1; i < chunks; i++) {
            continuationHeader(headers, csid, extended);
        }
        int from = payload.readerIndex();
        int left = length;
        int at = 0;
        boolean handedOver = false;
        try {
            for (int i = 0; i < chunks; i++) {
                int size = i == 0 ? first : continuation;
                if (i == chunks - 1) {
                    // the last header goes out in the buffer itself, with our reference
                    headers.readerIndex(at);
                    handedOver = true;
                    ctx.write(headers, ctx.voidPromise());
                } else {
                    ctx.write(headers.retainedSlice(at, size), ctx.voidPromise());
                }
                at += size;
                int n = Math.min(chunkSize, left);
                if (n > 0) {
                    ctx.write(payload.retainedSlice(from, n), ctx.voidPromise());
                    from += n;
                    left -= n;
                }
            }
        } finally {
            if (!handedOver) { // a released payload failed its slice: the headers are ours to free
                headers.release();
            }
        }
    }

    /**
     * Appends the message to {@code out} as chunks, copying the payload's readable bytes: for
     * control messages, and for tests.
     *
     * @param timestamp milliseconds, taken modulo 2^32
     */
    public void encode(
            ByteBuf out, int csid, int typeId, int streamId, long timestamp, ByteBuf payload) {
        int length = payload.readableBytes();
        prepare(csid, typeId, streamId, timestamp, length);
        boolean extended = field >= EXTENDED;
        int chunks = chunks(length);
        out.ensureWritable(
                MESSAGE_HEADER[fmt]
                        + chunks * (basicHeaderSize(csid) + (extended ? 4 : 0))
                        + length);
        header(out, csid, typeId, streamId, length, extended);
        int from = payload.readerIndex();
        int left = length;
        for (int i = 0; i < chunks; i++) {
            if (i > 0) {
                continuationHeader(out, csid, extended);
            }
            int n = Math.min(chunkSize, left);
            out.writeBytes(payload, from, n);
            from += n;
            left -= n;
        }
    }

    /**
     * Chooses the header type and timestamp field for the message and remembers it for the next.
     */
    private void prepare(int csid, int typeId, int streamId, long timestamp, int length) {
        if (csid < 2 || csid > MAX_CSID) {
            throw new IllegalArgumentException(
                    "chunk stream id " + csid + " outside 2.." + MAX_CSID);
        }
        if (typeId < 0 || typeId > 255) {
            throw new IllegalArgumentException("message type " + typeId);
        }
        if (length > 0xFFFFFF) {
            throw new IllegalArgumentException(
                    "message of " + length + " bytes does not fit RTMP's 24-bit length");
        }
        ChunkStream s = stream(csid);
        long ts = timestamp & MASK32;
        long delta = (ts - s.timestamp) & MASK32;
        if (!s.used || streamId != s.streamId || delta >= 0x80000000L) {
            fmt = 0;
            field = ts;
            s.deltaKnown = false;
        } else {
            if (length != s.length || typeId != s.typeId) {
                fmt = 1;
            } else if (!s.deltaKnown || delta != s.delta) {
                fmt = 2;
            } else {
                fmt = 3;
            }
            field = delta;
            s.delta = delta;
            s.deltaKnown = true;
        }
        s.used = true;
        s.length = length;
        s.typeId = typeId;
        s.streamId = streamId;
        s.timestamp = ts;
    }

    private void header(
            ByteBuf out, int csid, int typeId, int streamId, int length, boolean extended) {
        basicHeader(out, fmt, csid);
        if (fmt <= 2) {
            out.writeMedium(extended ? EXTENDED : (int) field);
            if (fmt <= 1) {
                out.writeMedium(length);
                out.writeByte(typeId);
                if (fmt == 0) {
                    out.writeIntLE(streamId);
                }
            }
        }
        if (extended) {
            out.writeInt((int) field);
        }
    }

    private void continuationHeader(ByteBuf out, int csid, boolean extended) {
        basicHeader(out, 3, csid);
        if (extended) {
            out.writeInt((int) field);
        }
    }

    private static void basicHeader(ByteBuf out, int fmt, int csid) {
        if (csid < 64) {
            out.writeByte(fmt << 6 | csid);
        } else if (csid < 320) {
            out.writeByte(fmt << 6);
            out.writeByte(csid - 64);
        } else {
            out.writeByte(fmt << 6 | 1);
            out.writeShortLE(csid - 64);
        }
    }

    private static int basicHeaderSize(int csid) {
        return csid < 64 ? 1 : csid < 320 ? 2 : 3;
    }

    private int chunks(int length) {
        // an empty message still takes one chunk, its header
        return length == 0 ? 1 : (length - 1) / chunkSize + 1;
    }

    private ChunkStream stream(int csid) {
        if (csid >= streams.length) {
            ChunkStream[] grown =
                    new ChunkStream[Math.min(Math.max(csid + 1, streams.length * 2), MAX_CSID + 1)];
            System.arraycopy(streams, 0, grown, 0, streams.length);
            streams = grown;
        }
        ChunkStream s = streams[csid];
        if (s == null) {
            s = streams[csid] = new ChunkStream();
        }
        return s;
    }
}
