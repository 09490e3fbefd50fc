package org.groovecast.ffmpeg.hls;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An ID3v2.4 tag (id3.org's "ID3 tag version 2.4.0 - Main Structure"), as HLS carries timed
 * metadata: no extended header, no padding, no unsynchronisation; frames of the tag's own version,
 * their sizes syncsafe as 2.4 wants them. Text frames are UTF-8 (encoding 3), the one encoding
 * every HLS player decodes (hls.js reads no other). Built once per title change, or per segment for
 * packed audio, never per frame.
 */
final class Id3Tag {
    /** The PRIV owner that marks a packed audio segment's timestamp (RFC 8216 §3.4). */
    static final String TRANSPORT_STREAM_TIMESTAMP = "com.apple.streaming.transportStreamTimestamp";

    private static final int HEADER = 10;

    /** The largest value a syncsafe 32-bit field holds: 28 bits. */
    private static final int SYNCSAFE_MAX = (1 << 28) - 1;

    private byte[] bytes = new byte[128];
    private int size = HEADER;

    /**
     * A text frame ({@code TIT2} title, {@code TPE1} artist...); nothing for a null text. Returns
     * this.
     */
    Id3Tag text(String frameId, String text) {
        if (text == null) return this;
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        frame(frameId, 1 + utf8.length);
        bytes[size++] = 3; // UTF-8
        put(utf8);
        return this;
    }

    /**
     * The PRIV frame that gives a packed audio segment's first sample its MPEG-2 timestamp: 33 bits
     * of a 90 kHz clock, big-endian in eight bytes whose upper 31 bits are zero. Returns this.
     */
    Id3Tag transportStreamTimestamp(long pts90k) {
        byte[] owner = TRANSPORT_STREAM_TIMESTAMP.getBytes(StandardCharsets.ISO_8859_1);
        frame("PRIV", owner.length + 1 + 8);
        put(owner);
        bytes[size++] = 0; // the owner's terminator
        long pts = pts90k & 0x1_FFFF_FFFFL;
        for (int shift = 56; shift >= 0; shift -= 8) bytes[size++] = (byte) (pts >>> shift);
        return this;
    }

    /** Whether any frame was added. */
    boolean isEmpty() {
        return size == HEADER;
    }

    /** The whole tag: header and frames. */
    byte[] toBytes() {
        byte[] tag = Arrays.copyOf(bytes, size);
        tag[0] = 'I';
        tag[1] = 'D';
        tag[2] = '3';
        tag[3] = 4; // version 2.4.0
        tag[4] = 0;
        tag[5] = 0; // no unsynchronisation, extended header, experimental flag or footer
        syncsafe(tag, 6, size - HEADER);
        return tag;
    }

    /** A frame header: its id, its size (syncsafe) and no flags. */
    private void frame(String id, int contentSize) {
        if (id.length() != 4) throw new IllegalArgumentException("frame ids are 4 characters");
        if (contentSize > SYNCSAFE_MAX - HEADER - size)
            throw new IllegalArgumentException("an ID3 tag holds at most 256 MB");
        room(HEADER + contentSize);
        for (int i = 0; i < 4; i++) bytes[size + i] = (byte) id.charAt(i);
        syncsafe(bytes, size + 4, contentSize);
        bytes[size + 8] = 0;
        bytes[size + 9] = 0;
        size += HEADER;
    }

    private void put(byte[] b) {
        System.arraycopy(b, 0, bytes, size, b.length);
        size += b.length;
    }

    private void room(int more) {
        if (size + more > bytes.length)
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }

    /** {@code value} in four bytes of seven bits each, so no byte of it looks like a sync. */
    private static void syncsafe(byte[] b, int at, int value) {
        b[at] = (byte) ((value >>> 21) & 0x7f);
        b[at + 1] = (byte) ((value >>> 14) & 0x7f);
        b[at + 2] = (byte) ((value >>> 7) & 0x7f);
        b[at + 3] = (byte) (value & 0x7f);
    }
}
