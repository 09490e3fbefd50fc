package org.groovecast.ffmpeg.encode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What libfdk_aac's options ask of the FDK encoder, judged before the library is called: these hold
 * with or without libfdk-aac installed (it is not, where the tests run).
 */
class FdkAacSettingsTest {
    @Test
    void profilesAreMpeg4ObjectTypes() {
        assertEquals(29, FdkAacSettings.aot("aac_he_v2"));
        assertEquals(5, FdkAacSettings.aot("aac_he"));
        assertEquals(2, FdkAacSettings.aot("aac_low"));
        assertEquals(23, FdkAacSettings.aot("aac_ld"));
        assertEquals(39, FdkAacSettings.aot("aac_eld"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> FdkAacSettings.aot("aac_hev2"));
        assertTrue(e.getMessage().contains("profile=aac_hev2"), e.getMessage());
    }

    @Test
    void azuracastsHeAacV2At64kStereo() {
        FdkAacSettings s =
                FdkAacSettings.of(
                        Map.of("profile", "aac_he_v2", "b", "64k", "afterburner", "0"), 2, 44100);
        assertEquals(new FdkAacSettings(29, 64_000, 0, 2, 2, 44100, false, -1, 0), s, s.toString());
        assertEquals(28, s.ffmpegProfile(), "AV_PROFILE_AAC_HE_V2");
    }

    @Test
    void theDefaultIsAacLcWithTheAfterburnerAtARateForTheChannels() {
        assertEquals(
                new FdkAacSettings(2, 128_000, 0, 2, 2, 48000, true, -1, 0),
                FdkAacSettings.of(Map.of(), 2, 48000));
        assertEquals(64_000, FdkAacSettings.of(Map.of(), 1, 44100).bitrate());
        assertEquals(32_000, FdkAacSettings.of(Map.of("profile", "aac_he_v2"), 2, 44100).bitrate());
        assertEquals(1, FdkAacSettings.of(Map.of(), 1, 44100).channelMode(), "MODE_1");
    }

    @Test
    void vbrSignalingAndCutoffAreFdksOwn() {
        FdkAacSettings s =
                FdkAacSettings.of(
                        Map.of("vbr", "4", "signaling", "explicit_hierarchical", "cutoff", "17000"),
                        2,
                        44100);
        assertEquals(4, s.vbr());
        assertEquals(2, s.signaling());
        assertEquals(17000, s.bandwidth());
    }

    @Test
    void heAacV2NeedsStereo() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> FdkAacSettings.of(Map.of("profile", "aac_he_v2"), 1, 44100));
        assertEquals(
                "libfdk_aac: profile=aac_he_v2 (HE-AACv2, parametric stereo) needs stereo; "
                        + "this stream has 1 channel (aac_he is HE-AAC for mono)",
                e.getMessage());
        FdkAacSettings.of(Map.of("profile", "aac_he"), 1, 44100); // HE-AAC v1 takes mono
    }

    @Test
    void whatFdkCannotDoIsNamed() {
        for (Object[] bad :
                new Object[][] {
                    {Map.of("b", "2k"), 2, 44100, "b=2k"},
                    {Map.of("vbr", "6"), 2, 44100, "vbr=6"},
                    {Map.of("afterburner", "yes"), 2, 44100, "afterburner=yes"},
                    {Map.of("latm", "1"), 2, 44100, "unknown option latm"},
                    {Map.of(), 2, 44000, "44000 Hz"},
                    {Map.of(), 7, 44100, "7 channels"},
                    {Map.of("profile", "aac_he"), 2, 12000, "at least 16 kHz"}
                }) {
            @SuppressWarnings("unchecked")
            Map<String, String> options = (Map<String, String>) bad[0];
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> FdkAacSettings.of(options, (int) bad[1], (int) bad[2]));
            assertTrue(e.getMessage().contains((String) bad[3]), e.getMessage());
        }
    }

    @Test
    void theLoaderSaysWhenThereIsNoLibrary() {
        assertNull(FdkAac.load("/nonexistent/libfdk-aac.so.2"));
        assertNull(FdkAac.load("bundled"));
    }
}
