package org.groovecast.ffmpeg.encode;

/**
 * MPEG audio Layer III frame headers (ISO 11172-3 / 13818-3, and MPEG 2.5): LAME hands out a byte
 * stream, a muxer wants one packet per frame, so the stream is cut at each header's length.
 */
final class Mp3Frames {
    private static final int[] MPEG1_KBPS = {
        0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, -1
    };
    private static final int[] MPEG2_KBPS = {
        0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1
    };
    private static final int[] MPEG1_RATES = {44100, 48000, 32000, -1};

    private Mp3Frames() {}

    /**
     * The length in bytes of the Layer III frame whose 4-byte header starts with {@code b0..b2}, or
     * -1 when these bytes are not such a header (no sync word, a reserved field, free format).
     */
    static int length(int b0, int b1, int b2) {
        if ((b0 & 0xFF) != 0xFF || (b1 & 0xE0) != 0xE0) return -1;
        int version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5, 1: reserved
        int layer = (b1 >> 1) & 3; // 1: Layer III
        if (version == 1 || layer != 1) return -1;
        int kbps = (version == 3 ? MPEG1_KBPS : MPEG2_KBPS)[(b2 >> 4) & 15];
        int rate = MPEG1_RATES[(b2 >> 2) & 3];
        if (kbps <= 0 || rate < 0) return -1;
        rate >>= version == 3 ? 0 : version == 2 ? 1 : 2;
        int padding = (b2 >> 1) & 1;
        return (version == 3 ? 144_000 : 72_000) * kbps / rate + padding;
    }

    /**
     * Samples per channel in a Layer III frame at {@code rate} Hz: MPEG-1 (32 kHz and up) 1152,
     * else 576.
     */
    static int samplesAt(int rate) {
        return rate >= 32000 ? 1152 : 576;
    }

    /** Samples per channel in a Layer III frame of this version byte: 1152 for MPEG-1, else 576. */
    static int samples(int b1) {
        return ((b1 >> 3) & 3) == 3 ? 1152 : 576;
    }
}
