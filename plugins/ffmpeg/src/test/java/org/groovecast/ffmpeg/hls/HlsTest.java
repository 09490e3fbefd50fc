package org.groovecast.ffmpeg.hls;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_AAC;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_AC3;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_EAC3;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_FLAC;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_MP3;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_OPUS;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_PCM_S16LE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_VORBIS;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PROFILE_AAC_HE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PROFILE_AAC_HE_V2;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PROFILE_AAC_LOW;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PROFILE_UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HlsTest {
    @Test
    void codecStringsAsApplesHlsAuthoringSpecificationListsThem() {
        assertEquals("mp4a.40.2", Hls.audioCodecs(AV_CODEC_ID_AAC, AV_PROFILE_AAC_LOW));
        assertEquals("mp4a.40.2", Hls.audioCodecs(AV_CODEC_ID_AAC, AV_PROFILE_UNKNOWN));
        assertEquals("mp4a.40.5", Hls.audioCodecs(AV_CODEC_ID_AAC, AV_PROFILE_AAC_HE));
        assertEquals("mp4a.40.29", Hls.audioCodecs(AV_CODEC_ID_AAC, AV_PROFILE_AAC_HE_V2));
        assertEquals("mp4a.40.34", Hls.audioCodecs(AV_CODEC_ID_MP3, AV_PROFILE_UNKNOWN));
        assertEquals("ac-3", Hls.audioCodecs(AV_CODEC_ID_AC3, AV_PROFILE_UNKNOWN));
        assertEquals("ec-3", Hls.audioCodecs(AV_CODEC_ID_EAC3, AV_PROFILE_UNKNOWN));
        assertEquals("Opus", Hls.audioCodecs(AV_CODEC_ID_OPUS, AV_PROFILE_UNKNOWN));
        assertEquals("fLaC", Hls.audioCodecs(AV_CODEC_ID_FLAC, AV_PROFILE_UNKNOWN));
        assertEquals("vorbis", Hls.audioCodecs(AV_CODEC_ID_VORBIS, AV_PROFILE_UNKNOWN));
        assertNull(
                Hls.audioCodecs(AV_CODEC_ID_PCM_S16LE, AV_PROFILE_UNKNOWN),
                "no name rather than a wrong one");
    }

    @Test
    void mpegTsForWhatItCarriesFragmentedMp4ForTheRest() {
        for (int id :
                new int[] {AV_CODEC_ID_AAC, AV_CODEC_ID_MP3, AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3})
            assertFalse(Hls.fragmented(id));
        for (int id : new int[] {AV_CODEC_ID_OPUS, AV_CODEC_ID_FLAC, AV_CODEC_ID_VORBIS})
            assertTrue(Hls.fragmented(id));
    }

    /** The system libraries' encoders, which the bundled FFmpeg does not know by name. */
    @Test
    void encoderNamesGiveTheirCodecsAlsoForTheSystemLibraries() {
        assertEquals(AV_CODEC_ID_VORBIS, Hls.codecId("libvorbis"));
        assertEquals(AV_CODEC_ID_AAC, Hls.codecId("libfdk_aac"));
        assertEquals(AV_CODEC_ID_OPUS, Hls.codecId("libopus"));
        assertEquals(AV_CODEC_ID_MP3, Hls.codecId("libmp3lame"));
        assertEquals(org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_NONE, Hls.codecId("nonsense"));
    }

    @Test
    void theTargetDurationIsTheWholeSecondsAtOrAboveTheSegmentDuration() {
        assertEquals(2, Hls.targetDuration(2));
        assertEquals(2, Hls.targetDuration(1.5));
        assertEquals(1, Hls.targetDuration(0.5));
        assertEquals(6, Hls.targetDuration(6.0));
        assertEquals(7, Hls.targetDuration(6.01));
    }

    @Test
    void theDiscontinuitySequenceCountsTheTagsThatLeaveAndFilesGoARoundLater() {
        HlsPlaylist p = new HlsPlaylist(2, 2);
        assertEquals(List.of(), p.add("a_0.ts", 2, false, null));
        assertEquals(List.of(), p.add("a_1.ts", 2, true, null));
        assertEquals(List.of(), p.add("a_2.ts", 2, false, null)); // a_0 leaves, no tag
        assertTrue(
                p.render(false)
                        .contains(
                                "#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n#EXT-X-DISCONTINUITY\n"));
        assertEquals(List.of(), p.add("a_3.m4s", 2, true, "a_init_3.mp4")); // a_1 and its tag leave
        String text = p.render(false);
        assertTrue(
                text.startsWith(
                        "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:2\n"
                                + "#EXT-X-DISCONTINUITY-SEQUENCE:1\n#EXTINF:2.000,\na_2.ts\n#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI=\"a_init_3.mp4\"\n"
                                + "#EXTINF:2.000,\na_3.m4s\n"),
                text);
        assertEquals(
                List.of("a_0.ts"),
                p.add("a_4.m4s", 2, false, "a_init_3.mp4"),
                "deleted a round after it left");
        assertEquals(List.of("a_1.ts"), p.add("a_5.m4s", 2, false, "a_init_3.mp4"));
        assertEquals(List.of("a_2.ts"), p.add("a_6.ts", 2, true, null));
        assertTrue(p.render(false).contains("#EXT-X-VERSION:6\n"), "the version never goes back");
        assertEquals(List.of("a_3.m4s"), p.add("a_7.ts", 2, false, null));
        assertEquals(List.of("a_4.m4s"), p.add("a_8.ts", 2, false, null));
        assertEquals(
                List.of("a_5.m4s", "a_init_3.mp4"),
                p.add("a_9.ts", 2, false, null),
                "an init section goes with its last segment");
        assertTrue(p.render(true).endsWith("a_9.ts\n#EXT-X-ENDLIST\n"));
    }
}
