package org.groovecast.ffmpeg.encode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.VideoFormat;
import org.junit.jupiter.api.Test;

/**
 * Ogg encoders carry titles in band: a session opened with tags writes them in its comment header,
 * and two sessions one after the other in the same bytes are two logical streams (chained Ogg).
 */
class OggTagsTest {
    @Test
    void oggSaysItsTitlesTravelInTheStreamOthersDoNot() {
        assertTrue(
                new FfmpegEncoder("vorbis", "ogg", "vorbis", Map.of(), Map.of(), 0)
                        .inBandMetadata());
        assertTrue(
                new FfmpegEncoder("opus", "ogg", "libopus", Map.of(), Map.of(), 0)
                        .inBandMetadata());
        assertFalse(
                new FfmpegEncoder("mp3", "mp3", "libmp3lame", Map.of(), Map.of(), 0)
                        .inBandMetadata());
    }

    @Test
    void eachSessionIsALogicalStreamWhoseCommentHeaderHoldsItsTags() throws Exception {
        FfmpegEncoder vorbis =
                new FfmpegEncoder(
                        "vorbis", "ogg", "vorbis", Map.of("strict", "experimental"), Map.of(), 0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        WritableByteChannel out = Channels.newChannel(bytes);
        Frame f = new Frame(EncoderTest.FORMAT, 882);
        long t = 0;
        for (String title : new String[] {"First", "Second"}) {
            try (Encoder.Session s =
                    vorbis.open(
                            EncoderTest.FORMAT,
                            VideoFormat.DEFAULT,
                            out,
                            Metadata.of("title", title, "artist", "Groovecast"))) {
                for (int i = 0; i < 50; i++, t += 882) s.encode(EncoderTest.sine(f, t));
            }
        }
        String text = bytes.toString(StandardCharsets.ISO_8859_1).toLowerCase();
        assertTrue(
                text.indexOf("title=first") >= 0
                        && text.indexOf("title=second") > text.indexOf("title=first"),
                "tags in the comment headers");
        assertTrue(text.contains("artist=groovecast"));
        byte[] b = bytes.toByteArray();
        int beginnings = 0;
        int ends = 0;
        for (int i = 0; i + 6 < b.length; i++) {
            if (b[i] == 'O'
                    && b[i + 1] == 'g'
                    && b[i + 2] == 'g'
                    && b[i + 3] == 'S'
                    && b[i + 4] == 0) {
                if ((b[i + 5] & 0x02) != 0) beginnings++;
                if ((b[i + 5] & 0x04) != 0) ends++;
            }
        }
        assertEquals(2, beginnings, "two logical streams, one after the other");
        assertEquals(2, ends);
    }
}
