package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Reassembles the RTMP chunk stream of one connection into messages, inline on that connection's
 * event loop.
 *
 * <p><b>Input.</b> {@link #decode} reads chunk headers only when they are whole and leaves an
 * incomplete header's bytes unread in {@code in}: the caller keeps a cumulation buffer, appends
 * each read to it, calls {@code decode} and then discards what was read. Chunk data, by contrast,
 * is taken as it comes, so a 4 KiB chunk split over several TCP reads is copied as each part
 * arrives and never held back; what the cumulation keeps between calls is therefore a partial
 * header, fewer than 18 bytes.
 *
 * <p><b>Ownership.</b> The decoder never retains or releases {@code in}. Each message's payload
 * comes from the allocator given at construction (the channel's) and is grown as the message's
 * chunks arrive, never reserved from the length its header declares alone: a buffer first holds
 * what came of the first chunk, or as much as the last message completed on the same chunk stream
 * (bytes the peer did send, so a publisher's steady stream of similar messages gets each one's
 * buffer at once), and at least doubles when it must grow; never more than the message's length.
 * Chunk data is copied into it straight from {@code in}, buffer to buffer. When the last chunk
 * arrives the payload is handed to the {@link Sink}, which owns it from then on: refCnt 1,
 * readerIndex 0, writerIndex and capacity equal to the message length. Payloads of messages still
 * being assembled belong to the decoder until {@link #release()} (the connection closed) or an
 * Abort message frees them.
 *
 * <p><b>Cost.</b> Per-chunk-stream state lives in slots created when a chunk stream id first
 * appears (bounded by {@code maxChunkStreamId}); in steady state a chunk costs no allocation at all
 * and a message only its payload buffer (a message longer than the last one on its chunk stream
 * swaps it for a bigger one a few times; the pooled allocator recycles what it leaves). Nothing is
 * logged.
 *
 * <p><b>Hostile input.</b> Anything impossible throws {@link RtmpProtocolException}, after which
 * the decoder is unusable and the session must close (and call {@link #release()}). Checked from
 * the header: a message longer than {@code maxMessageSize}; a chunk stream id above the bound; a
 * message type outside the ones RTMP defines; a type 1, 2 or 3 header on a chunk stream that never
 * had a type 0 one; a type 0, 1 or 2 header on a chunk stream whose previous message is still
 * incomplete; and a Set Chunk Size or Abort message that is not 4 bytes long. Checked before a
 * payload grows: the bytes held by this connection's incomplete messages together (on all its chunk
 * streams) past {@code maxPending}, and those of every decoder sharing the {@link AssemblyBudget}
 * past its cap. The chunk size announced by the peer is never used to size anything.
 *
 * <p><b>Timestamps.</b> Delivered as the absolute 32-bit timestamp in an unsigned {@code long};
 * deltas are added modulo 2^32, so a stream that runs past 2^32 ms wraps to small values. A type 3
 * header that starts a new message repeats the timestamp field of the chunk stream's last type 0, 1
 * or 2 header and adds it: the delta of a type 1 or 2 header, and after a type 0 header its
 * absolute timestamp, as FFmpeg's writer assumes and FFmpeg's and librtmp's readers do. ({@link
 * ChunkEncoder} never sends a type 3 header straight after a type 0 one, so it does not depend on
 * this reading.)
 *
 * <p><b>Extended timestamps.</b> When the last type 0, 1 or 2 header of a chunk stream carried an
 * extended timestamp, a type 3 header that starts a new message is taken to carry the 4 extended
 * bytes (the specification says type 3 chunks have them; FFmpeg writes them there) and they are the
 * delta used. A type 3 header continuing a message may or may not repeat them: FFmpeg and
 * nginx-rtmp do, some other writers do not. The decoder skips the next 4 bytes if they equal the
 * stored extended value and otherwise takes them as chunk data, waiting while fewer than 4 bytes
 * are available (so a non-repeating writer's last chunk, if under 4 bytes, waits for the next
 * bytes). The ambiguity is inherent to the rule: a non-repeating writer whose chunk data happens to
 * begin with those same 4 bytes is misread.
 *
 * <p>Not thread-safe: one decoder per connection, used on its event loop.
 */
public final class ChunkDecoder {
    public static final int DEFAULT_MAX_MESSAGE = 8 << 20;
    public static final int DEFAULT_MAX_CHUNK_STREAM_ID = 1024;

    /** Receives each message as its last chunk arrives. */
    public interface Sink {
        /**
         * A complete message. {@code payload} is the sink's to release (refCnt 1, readerIndex 0,
         * writerIndex its length); {@code timestamp} is in 0..2^32-1. Set Chunk Size has already
         * taken effect and an aborted partial message has already been dropped when their messages
         * arrive here.
         */
        void message(int chunkStreamId, int typeId, int streamId, long timestamp, ByteBuf payload);
    }

    private static final int INITIAL_CHUNK_SIZE = 128;
    private static final long MASK32 = 0xFFFFFFFFL;
    private static final int EXTENDED = 0xFFFFFF;

    /** Message header length by header type (fmt). */
    private static final int[] MESSAGE_HEADER = {11, 7, 3, 0};

    /** Bit n set when message type n is one RTMP defines. */
    private static final long KNOWN_TYPES =
            bits(
                    MessageType.SET_CHUNK_SIZE,
                    MessageType.ABORT,
                    MessageType.ACKNOWLEDGEMENT,
                    MessageType.USER_CONTROL,
                    MessageType.WINDOW_ACKNOWLEDGEMENT_SIZE,
                    MessageType.SET_PEER_BANDWIDTH,
                    MessageType.AUDIO,
                    MessageType.VIDEO,
                    MessageType.DATA_AMF3,
                    MessageType.SHARED_OBJECT_AMF3,
                    MessageType.COMMAND_AMF3,
                    MessageType.DATA_AMF0,
                    MessageType.SHARED_OBJECT_AMF0,
                    MessageType.COMMAND_AMF0,
                    MessageType.AGGREGATE);

    /**
     * What a chunk stream remembers between chunks: the last header's fields and the partial
     * message.
     */
    private static final class ChunkStream {
        final int csid;
        int length;
        int typeId;
        int streamId;

        /** Absolute timestamp of the message last started on this chunk stream. */
        long timestamp;

        /**
         * The last type 0/1/2 header's timestamp field (extended value included): what type 3
         * repeats.
         */
        long field;

        /** Whether that field was extended, so type 3 chunks may carry it again. */
        boolean extended;

        /** Whether a message is being assembled. */
        boolean open;

        /** Length of the last message completed here: what a new one's buffer may start with. */
        int proven;

        /** Its bytes so far; null until the first of them arrives, and between messages. */
        ByteBuf payload;

        ChunkStream(int csid) {
            this.csid = csid;
        }
    }

    private final ByteBufAllocator alloc;
    private final int maxMessageSize;
    private final int maxChunkStreamId;
    private final long maxPending;
    private final AssemblyBudget budget;
    private ChunkStream[] streams;
    private int chunkSize = INITIAL_CHUNK_SIZE;

    /** The chunk stream whose chunk data is being read, while {@code chunkLeft > 0}. */
    private ChunkStream current;

    private int chunkLeft;

    /** Capacity of the payloads being assembled, all chunk streams together. */
    private long held;

    /**
     * @param alloc where payloads come from (the channel's allocator)
     * @param maxMessageSize the longest message accepted; the server uses {@link
     *     #DEFAULT_MAX_MESSAGE}
     * @param maxChunkStreamId the highest chunk stream id accepted (2..65599); the server uses
     *     {@link #DEFAULT_MAX_CHUNK_STREAM_ID}
     */
    public ChunkDecoder(ByteBufAllocator alloc, int maxMessageSize, int maxChunkStreamId) {
        this(alloc, maxMessageSize, maxChunkStreamId, 2L * maxMessageSize, null);
    }

    /**
     * @param maxPending the most bytes this connection's incomplete messages may hold together
     * @param budget what all connections' incomplete messages may hold together, or null for no cap
     *     beyond {@code maxPending}
     */
    public ChunkDecoder(
            ByteBufAllocator alloc,
            int maxMessageSize,
            int maxChunkStreamId,
            long maxPending,
            AssemblyBudget budget) {
        if (maxMessageSize < 0) {
            throw new IllegalArgumentException("maxMessageSize " + maxMessageSize);
        }
        if (maxPending < 0) {
            throw new IllegalArgumentException("maxPending " + maxPending);
        }
        if (maxChunkStreamId < 2 || maxChunkStreamId > 65599) {
            throw new IllegalArgumentException(
                    "maxChunkStreamId " + maxChunkStreamId + " outside 2..65599");
        }
        this.alloc = alloc;
        this.maxMessageSize = maxMessageSize;
        this.maxChunkStreamId = maxChunkStreamId;
        this.maxPending = maxPending;
        this.budget = budget;
        this.streams = new ChunkStream[Math.min(maxChunkStreamId + 1, 16)];
    }

    /** The chunk size the peer's chunks currently have. */
    public int chunkSize() {
        return chunkSize;
    }

    /**
     * Consumes every whole header and all chunk data available in {@code in}, delivering complete
     * messages to {@code sink}. Returns leaving at most an incomplete header (under 18 bytes)
     * unread.
     *
     * @throws RtmpProtocolException the peer broke the protocol; the session must close
     */
    public void decode(ByteBuf in, Sink sink) {
        for (; ; ) {
            if (chunkLeft > 0) {
                int n = Math.min(chunkLeft, in.readableBytes());
                if (n == 0) {
                    return;
                }
                ChunkStream s = current;
                copy(in, room(s, n), n);
                chunkLeft -= n;
                if (chunkLeft == 0) {
                    current = null;
                    if (s.payload.writerIndex() == s.length) {
                        complete(s, sink);
                    }
                }
            } else if (!header(in, sink)) {
                return;
            }
        }
    }

    /** Frees the payloads of messages still being assembled; the connection is gone. */
    public void release() {
        for (ChunkStream s : streams) {
            if (s != null) {
                drop(s);
            }
        }
        current = null;
        chunkLeft = 0;
    }

    /** Bytes this decoder's incomplete messages hold now. */
    public long pending() {
        return held;
    }

    /**
     * The payload of {@code s} with room for {@code n} more bytes, grown (and paid for) if need be.
     */
    private ByteBuf room(ChunkStream s, int n) {
        ByteBuf p = s.payload;
        int capacity = p == null ? 0 : p.capacity();
        int needed = (p == null ? 0 : p.writerIndex()) + n;
        if (needed <= capacity) {
            return p;
        }
        // at least doubling keeps a message of many chunks to a few reallocations, never past its
        // length
        int grown =
                (int) Math.min(s.length, Math.max(needed, p == null ? s.proven : 2L * capacity));
        int more = grown - capacity;
        if (held + more > maxPending) {
            throw new RtmpProtocolException(
                    "incomplete messages would hold "
                            + (held + more)
                            + " bytes, over the connection's limit of "
                            + maxPending);
        }
        if (budget != null && !budget.take(more)) {
            throw new RtmpProtocolException(
                    "incomplete messages of all connections would hold more than "
                            + budget.limit()
                            + " bytes (this one holds "
                            + held
                            + ")");
        }
        try {
            ByteBuf bigger = alloc.buffer(grown, s.length);
            if (p != null) {
                // not p.capacity(grown): without sun.misc.Unsafe the pool's reallocation copies
                // through
                // a new ByteBuffer each time, where copy() uses the buffers' cached views
                copy(p, bigger, p.readableBytes());
                p.release();
            }
            s.payload = p = bigger;
        } catch (OutOfMemoryError e) {
            if (budget != null) {
                budget.give(more);
            }
            throw new RtmpProtocolException(
                    "no memory left for a message of "
                            + s.length
                            + " bytes ("
                            + e.getMessage()
                            + ")");
        }
        held += more;
        return p;
    }

    /** Ends the message of {@code s}, freeing what it holds. */
    private void drop(ChunkStream s) {
        ByteBuf p = s.payload;
        if (p != null) {
            unhold(p.capacity());
            p.release();
            s.payload = null;
        }
        s.open = false;
    }

    private void unhold(int capacity) {
        held -= capacity;
        if (budget != null) {
            budget.give(capacity);
        }
    }

    /** Bytes of the message on {@code s} received so far. */
    private static int filled(ChunkStream s) {
        return s.payload == null ? 0 : s.payload.writerIndex();
    }

    /** Moves {@code n} bytes of chunk data from {@code in} to the end of {@code payload}. */
    private static void copy(ByteBuf in, ByteBuf payload, int n) {
        if (in.hasArray() || in.nioBufferCount() != 1) {
            payload.writeBytes(in, n);
        } else {
            // Netty without sun.misc.Unsafe (its default on Java 25+) copies out of a direct
            // buffer through a new ByteBuffer duplicate per call; the buffer's cached NIO view is
            // free
            payload.writeBytes(in.internalNioBuffer(in.readerIndex(), n));
            in.skipBytes(n);
        }
    }

    /** Reads one chunk header if all of it is there; false (nothing consumed) if not. */
    private boolean header(ByteBuf in, Sink sink) {
        int at = in.readerIndex();
        int end = in.writerIndex();
        if (at == end) {
            return false;
        }
        int first = in.getUnsignedByte(at);
        int fmt = first >>> 6;
        int csid = first & 0x3F;
        int pos = at + 1;
        if (csid == 0) {
            if (end - pos < 1) {
                return false;
            }
            csid = 64 + in.getUnsignedByte(pos);
            pos += 1;
        } else if (csid == 1) {
            if (end - pos < 2) {
                return false;
            }
            csid = 64 + in.getUnsignedByte(pos) + (in.getUnsignedByte(pos + 1) << 8);
            pos += 2;
        }
        if (csid > maxChunkStreamId) {
            throw new RtmpProtocolException(
                    "chunk stream id " + csid + " beyond the bound " + maxChunkStreamId);
        }
        ChunkStream s = csid < streams.length ? streams[csid] : null;
        if (s == null && fmt != 0) {
            throw new RtmpProtocolException(
                    "chunk stream " + csid + " continues a message it never started");
        }
        if (end - pos < MESSAGE_HEADER[fmt]) {
            return false;
        }
        if (fmt == 3) {
            return continuation(in, s, pos, end, sink);
        }

        long field = in.getUnsignedMedium(pos);
        pos += 3;
        int length;
        int typeId;
        int streamId;
        if (fmt <= 1) {
            length = in.getUnsignedMedium(pos);
            typeId = in.getUnsignedByte(pos + 3);
            pos += 4;
            if (fmt == 0) {
                streamId = in.getIntLE(pos);
                pos += 4;
            } else {
                streamId = s.streamId;
            }
        } else {
            length = s.length;
            typeId = s.typeId;
            streamId = s.streamId;
        }
        boolean extended = field == EXTENDED;
        if (extended) {
            if (end - pos < 4) {
                return false;
            }
            field = in.getUnsignedInt(pos);
            pos += 4;
        }
        if (s != null && s.open) {
            throw new RtmpProtocolException(
                    "chunk stream "
                            + csid
                            + " starts a new message with "
                            + (s.length - filled(s))
                            + " of "
                            + s.length
                            + " bytes of the previous one missing");
        }
        if (fmt <= 1) {
            // type 2 and 3 inherit what a type 0 or 1 header already had checked
            check(typeId, length);
        }
        in.readerIndex(pos);
        if (s == null) {
            s = open(csid);
        }
        s.length = length;
        s.typeId = typeId;
        s.streamId = streamId;
        s.field = field;
        s.extended = extended;
        s.timestamp = fmt == 0 ? field : (s.timestamp + field) & MASK32;
        start(s, sink);
        return true;
    }

    /**
     * A type 3 header: the next chunk of the partial message, or a new message like the last one.
     */
    private boolean continuation(ByteBuf in, ChunkStream s, int pos, int end, Sink sink) {
        if (s.extended) {
            if (end - pos < 4) {
                return false;
            }
            long field = in.getUnsignedInt(pos);
            if (!s.open) {
                // a new message's header: here every writer sends the field, and it is the delta
                s.field = field;
                pos += 4;
            } else if (field == s.field) {
                pos += 4;
            }
        }
        in.readerIndex(pos);
        if (!s.open) {
            s.timestamp = (s.timestamp + s.field) & MASK32;
            start(s, sink);
        } else {
            current = s;
            chunkLeft = Math.min(chunkSize, s.length - filled(s));
        }
        return true;
    }

    private void check(int typeId, int length) {
        if (typeId >= 64 || (KNOWN_TYPES & (1L << typeId)) == 0) {
            throw new RtmpProtocolException("unknown message type " + typeId);
        }
        if (length > maxMessageSize) {
            throw new RtmpProtocolException(
                    "message of " + length + " bytes exceeds the limit of " + maxMessageSize);
        }
        if ((typeId == MessageType.SET_CHUNK_SIZE || typeId == MessageType.ABORT) && length != 4) {
            throw new RtmpProtocolException(
                    "protocol control message of type "
                            + typeId
                            + " has "
                            + length
                            + " bytes instead of 4");
        }
    }

    /**
     * Sets up the new message's first chunk (after the last check); its payload comes with its
     * bytes.
     */
    private void start(ChunkStream s, Sink sink) {
        int length = s.length;
        if (length == 0) {
            s.payload = alloc.buffer(0, 0);
            complete(s, sink);
            return;
        }
        s.open = true;
        current = s;
        chunkLeft = Math.min(chunkSize, length);
    }

    private void complete(ChunkStream s, Sink sink) {
        ByteBuf payload = s.payload;
        s.payload = null;
        s.open = false;
        s.proven = s.length;
        unhold(payload.capacity());
        if (s.typeId == MessageType.SET_CHUNK_SIZE) {
            int size = payload.getInt(0);
            if (size <= 0) { // zero, or the reserved top bit set
                payload.release();
                throw new RtmpProtocolException(
                        "chunk size " + Integer.toUnsignedString(size) + " is invalid");
            }
            chunkSize = size;
        } else if (s.typeId == MessageType.ABORT) {
            abort(payload.getUnsignedInt(0));
        }
        sink.message(s.csid, s.typeId, s.streamId, s.timestamp, payload);
    }

    private void abort(long csid) {
        // an abort for a chunk stream with nothing in progress is harmless: nothing to drop
        if (csid < streams.length) {
            ChunkStream s = streams[(int) csid];
            if (s != null) {
                drop(s);
            }
        }
    }

    private ChunkStream open(int csid) {
        if (csid >= streams.length) {
            int size = Math.min(Math.max(csid + 1, streams.length * 2), maxChunkStreamId + 1);
            ChunkStream[] grown = new ChunkStream[size];
            System.arraycopy(streams, 0, grown, 0, streams.length);
            streams = grown;
        }
        return streams[csid] = new ChunkStream(csid);
    }

    private static long bits(int... types) {
        long set = 0;
        for (int t : types) {
            set |= 1L << t;
        }
        return set;
    }
}
