package org.groovecast.ffmpeg.hls;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * An ISO BMFF event message box ({@code emsg}, ISO/IEC 23009-1 §5.10.3.3) of version 1 carrying an
 * ID3 tag, as AOM's "Carriage of ID3 Timed Metadata in the Common Media Application Format" defines
 * it: scheme {@code https://aomedia.org/emsg/ID3}, an empty value, the whole tag as the message;
 * its presentation time on the media timeline (version 1, not relative to the fragment), its
 * duration unknown (the title holds until the next one).
 */
final class Emsg {
    static final String ID3_SCHEME = "https://aomedia.org/emsg/ID3";
    private static final byte[] SCHEME = (ID3_SCHEME + '\0').getBytes(StandardCharsets.US_ASCII);
    private static final int UNKNOWN_DURATION = 0xffffffff;

    private Emsg() {}

    /**
     * The box of {@code tag}, presented at {@code presentationTime} in units of {@code timescale}
     * per second; {@code id} is the event's, the same for every repetition of one title.
     */
    static byte[] id3(int timescale, long presentationTime, long id, byte[] tag) {
        int size = 8 + 4 + 4 + 8 + 4 + 4 + SCHEME.length + 1 + tag.length;
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(size).put("emsg".getBytes(StandardCharsets.US_ASCII));
        b.putInt(1 << 24); // version 1, no flags
        b.putInt(timescale);
        b.putLong(presentationTime);
        b.putInt(UNKNOWN_DURATION);
        b.putInt((int) id);
        b.put(SCHEME);
        b.put((byte) 0); // value: empty
        b.put(tag);
        return b.array();
    }
}
