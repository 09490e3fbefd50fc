package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The ID3v2.4 writer, read back byte by byte as the standard lays a tag out. */
class Id3TagTest {
    @Test
    void aTitleAndArtistAreUtf8TextFramesInAVersion24TagWithSyncsafeSizes() {
        byte[] tag = new Id3Tag().text("TIT2", "Für Elise").text("TPE1", "Ludwig").toBytes();
        assertArrayEquals("ID3".getBytes(StandardCharsets.US_ASCII), Arrays.copyOf(tag, 3));
        assertEquals(4, tag[3], "version 2.4");
        assertEquals(0, tag[4], "revision 0");
        assertEquals(0, tag[5], "no flags");
        byte[] title = "Für Elise".getBytes(StandardCharsets.UTF_8);
        int titleFrame = 10 + 1 + title.length;
        int artistFrame = 10 + 1 + 6;
        assertEquals(titleFrame + artistFrame, syncsafe(tag, 6), "the size after the header");
        assertEquals(10 + titleFrame + artistFrame, tag.length, "no padding");
        assertEquals("TIT2", ascii(tag, 10, 4));
        assertEquals(1 + title.length, syncsafe(tag, 14), "a frame's size in 2.4 is syncsafe");
        assertEquals(0, tag[18] | tag[19], "no frame flags");
        assertEquals(3, tag[20], "encoding 3, UTF-8");
        assertEquals("Für Elise", new String(tag, 21, title.length, StandardCharsets.UTF_8));
        int artist = 10 + titleFrame;
        assertEquals("TPE1", ascii(tag, artist, 4));
        assertEquals(7, syncsafe(tag, artist + 4));
        assertEquals(3, tag[artist + 10]);
        assertEquals("Ludwig", ascii(tag, artist + 11, 6));
    }

    @Test
    void sizesOver127AreWrittenInSevenBitsABytes() {
        String title = "x".repeat(300);
        byte[] tag = new Id3Tag().text("TIT2", title).toBytes();
        assertEquals(10 + 301, syncsafe(tag, 6));
        assertArrayEquals(new byte[] {0, 0, 2, 0x37}, Arrays.copyOfRange(tag, 6, 10), "311");
        assertArrayEquals(new byte[] {0, 0, 2, 0x2d}, Arrays.copyOfRange(tag, 14, 18), "301");
        for (int i = 6; i < 10; i++) assertTrue(tag[i] >= 0, "no byte above 0x7f in a size");
    }

    @Test
    void thePrivTimestampIs33BitsOfA90kHzClockInEightBigEndianBytes() {
        byte[] tag = new Id3Tag().transportStreamTimestamp(0x1_2345_6789L + (1L << 33)).toBytes();
        String owner = "com.apple.streaming.transportStreamTimestamp";
        assertEquals("PRIV", ascii(tag, 10, 4));
        assertEquals(owner.length() + 1 + 8, syncsafe(tag, 14));
        assertEquals(owner, ascii(tag, 20, owner.length()));
        assertEquals(0, tag[20 + owner.length()], "the owner's terminator");
        assertArrayEquals(
                new byte[] {0, 0, 0, 1, 0x23, 0x45, 0x67, (byte) 0x89},
                Arrays.copyOfRange(tag, 21 + owner.length(), 29 + owner.length()),
                "the 34th bit and above dropped: the upper 31 bits are zero");
        assertEquals(tag.length, 10 + syncsafe(tag, 6));
    }

    @Test
    void nullTextsAddNoFrameAndFrameIdsAreFourCharacters() {
        Id3Tag empty = new Id3Tag().text("TIT2", null);
        assertTrue(empty.isEmpty());
        assertEquals(10, empty.toBytes().length);
        assertThrows(IllegalArgumentException.class, () -> new Id3Tag().text("TT2", "x"));
    }

    private static int syncsafe(byte[] b, int at) {
        return (b[at] & 0x7f) << 21
                | (b[at + 1] & 0x7f) << 14
                | (b[at + 2] & 0x7f) << 7
                | b[at + 3] & 0x7f;
    }

    private static String ascii(byte[] b, int at, int n) {
        return new String(b, at, n, StandardCharsets.ISO_8859_1);
    }
}
