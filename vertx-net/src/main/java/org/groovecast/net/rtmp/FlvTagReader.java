package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Cuts an FLV byte stream (what an encoder with {@code format: 'flv'} writes, in pieces of any
 * size) into its tags, as RTMP messages: the file header is skipped, each tag's body becomes a
 * message payload of the tag's type and timestamp.
 */
final class FlvTagReader {
    /** Receives each tag; takes ownership of the message's payload. */
    interface Sink {
        void tag(RtmpMessage m);
    }

    private static final int FILE_HEADER =
            9 + 4; // signature, version, flags, header size; PreviousTagSize0
    private static final int TAG_HEADER = 11;
    private static final int MAX_TAG = 16 << 20;

    private final ByteBufAllocator alloc;

    /**
     * Made by the first read, not with the reader: an output is made when its script loads, and one
     * whose station never starts (a script only checked, a load that fails later) never reads nor
     * releases.
     */
    private ByteBuf pending;

    private boolean headerSkipped;

    FlvTagReader(ByteBufAllocator alloc) {
        this.alloc = alloc;
    }

    /** Adds bytes (not taken: the caller keeps its buffer) and hands out every tag completed. */
    void read(ByteBuf bytes, Sink sink) {
        if (pending == null) pending = alloc.buffer(64 * 1024);
        pending.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
        if (!headerSkipped) {
            if (pending.readableBytes() < FILE_HEADER) return;
            if (pending.getByte(pending.readerIndex()) != 'F')
                throw new IllegalStateException("not an FLV stream");
            int headerSize = pending.getInt(pending.readerIndex() + 5);
            // 9 in every FLV version so far; a negative or huge one is not a header at all
            if (headerSize < 9 || headerSize > MAX_TAG) {
                throw new IllegalStateException(
                        "not an FLV stream: header of "
                                + Integer.toUnsignedString(headerSize)
                                + " bytes");
            }
            if (pending.readableBytes() < headerSize + 4) return;
            pending.skipBytes(headerSize + 4);
            headerSkipped = true;
        }
        while (pending.readableBytes() >= TAG_HEADER) {
            int at = pending.readerIndex();
            int type = pending.getByte(at) & 0x1F;
            int size = pending.getUnsignedMedium(at + 1);
            if (size > MAX_TAG) throw new IllegalStateException("FLV tag of " + size + " bytes");
            if (pending.readableBytes() < TAG_HEADER + size + 4) break;
            long timestamp =
                    pending.getUnsignedMedium(at + 4)
                            | (long) (pending.getByte(at + 7) & 0xFF) << 24;
            ByteBuf body = alloc.buffer(size, size);
            body.writeBytes(pending, at + TAG_HEADER, size);
            pending.skipBytes(TAG_HEADER + size + 4);
            sink.tag(new RtmpMessage(type, timestamp, body));
        }
        pending.discardSomeReadBytes();
    }

    /** Lets the buffer go (once, however often it is called): the output closed. */
    void release() {
        if (pending != null) pending.release();
        pending = null;
    }
}
