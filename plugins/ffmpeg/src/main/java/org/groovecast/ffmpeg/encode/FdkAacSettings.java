package org.groovecast.ffmpeg.encode;

import java.util.Map;
import java.util.Set;

/**
 * What a script's {@code libfdk_aac} options ask of the FDK encoder, judged before it opens: the
 * audio object type its {@code profile} names (HE-AACv2 is 29, HE-AAC 5, AAC-LC 2), the bit rate or
 * VBR mode, the channel mode. Options are FFmpeg's libfdk_aac names, so {@code
 * %ffmpeg(%audio(codec="libfdk_aac", profile="aac_he_v2", b="64k"))} means the same here.
 *
 * @param aot MPEG-4 audio object type
 * @param bitrate bit/s (CBR); ignored when {@code vbr} is set
 * @param vbr FDK's VBR mode 1 to 5, 0 for CBR
 * @param channels the encoded channels
 * @param channelMode FDK's CHANNEL_MODE for them
 * @param sampleRate Hz
 * @param afterburner FDK's afterburner (better quality, more CPU): on unless {@code afterburner=0}
 * @param signaling FDK's SBR signaling, -1 for the encoder's choice by container
 * @param bandwidth Hz, 0 for FDK's own
 */
record FdkAacSettings(
        int aot,
        int bitrate,
        int vbr,
        int channels,
        int channelMode,
        int sampleRate,
        boolean afterburner,
        int signaling,
        int bandwidth) {
    static final int AOT_LC = 2;
    static final int AOT_HE = 5;
    static final int AOT_HE_V2 = 29;
    static final int AOT_LD = 23;
    static final int AOT_ELD = 39;

    /** The rates FDK's encoder takes. */
    private static final Set<Integer> RATES =
            Set.of(
                    8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200,
                    96000);

    /**
     * {@code options} (the codec's, {@code ac}/{@code ar} already taken) for {@code channels} at
     * {@code sampleRate}; IllegalArgumentException naming what FDK cannot do.
     */
    static FdkAacSettings of(Map<String, String> options, int channels, int sampleRate) {
        int aot = AOT_LC;
        int kbps = -1;
        int vbr = 0;
        boolean afterburner = true;
        int signaling = -1;
        int bandwidth = 0;
        for (Map.Entry<String, String> o : options.entrySet()) {
            String v = o.getValue().trim();
            switch (o.getKey()) {
                case "profile" -> aot = aot(v);
                case "b" -> {
                    kbps = BitRateOption.kbps(v);
                    if (kbps < 8 || kbps > 800) throw bad("b=" + v + ": a rate from 8k to 800k");
                }
                case "vbr" -> vbr = integer("vbr", v, 0, 5);
                case "afterburner" -> afterburner = integer("afterburner", v, 0, 1) == 1;
                case "signaling" -> signaling = signaling(v);
                case "cutoff" -> bandwidth = integer("cutoff", v, 0, sampleRate / 2);
                default ->
                        throw bad(
                                "unknown option "
                                        + o.getKey()
                                        + " (this encoder takes profile, b, vbr, afterburner, signaling, cutoff, ac, ar)");
            }
        }
        if (!RATES.contains(sampleRate))
            throw bad(sampleRate + " Hz: FDK encodes at " + new java.util.TreeSet<>(RATES));
        int mode = channelMode(channels);
        if (aot == AOT_HE_V2 && channels != 2)
            throw bad(
                    "profile=aac_he_v2 (HE-AACv2, parametric stereo) needs stereo; this stream has "
                            + channels
                            + " channel"
                            + (channels == 1 ? "" : "s")
                            + " (aac_he is HE-AAC for mono)");
        if ((aot == AOT_HE || aot == AOT_HE_V2) && sampleRate < 16000)
            throw bad("HE-AAC needs at least 16 kHz, not " + sampleRate);
        int bitrate = kbps > 0 ? kbps * 1000 : defaultBitrate(aot, channels);
        return new FdkAacSettings(
                aot, bitrate, vbr, channels, mode, sampleRate, afterburner, signaling, bandwidth);
    }

    /** FFmpeg's libfdk_aac profile names as MPEG-4 audio object types. */
    static int aot(String profile) {
        return switch (profile) {
            case "aac_low" -> AOT_LC;
            case "aac_he" -> AOT_HE;
            case "aac_he_v2" -> AOT_HE_V2;
            case "aac_ld" -> AOT_LD;
            case "aac_eld" -> AOT_ELD;
            default ->
                    throw bad(
                            "profile="
                                    + profile
                                    + ": aac_low, aac_he, aac_he_v2, aac_ld or aac_eld");
        };
    }

    /**
     * FFmpeg's profile number for the stream ({@code AV_PROFILE_AAC_*}: the object type less one).
     */
    int ffmpegProfile() {
        return aot - 1;
    }

    /**
     * FDK's CHANNEL_MODE for the station's channel order (WAV's, which FDK is told): mono, stereo,
     * 3.0, 4.0, 5.0, 5.1, 7.1.
     */
    static int channelMode(int channels) {
        return switch (channels) {
            case 1, 2, 3, 4, 5, 6 -> channels;
            case 8 -> 7;
            default -> throw bad(channels + " channels: FDK takes 1 to 6 or 8");
        };
    }

    /** Rates where each object type sounds as it should, when the script gives none. */
    private static int defaultBitrate(int aot, int channels) {
        return switch (aot) {
            case AOT_HE_V2 -> 32_000;
            case AOT_HE -> 32_000 * Math.min(channels, 2) + 16_000 * Math.max(0, channels - 2);
            default -> 64_000 * channels;
        };
    }

    private static int signaling(String v) {
        return switch (v) {
            case "default" -> -1;
            case "implicit" -> 0;
            case "explicit_sbr" -> 1;
            case "explicit_hierarchical" -> 2;
            default ->
                    throw bad(
                            "signaling="
                                    + v
                                    + ": default, implicit, explicit_sbr or explicit_hierarchical");
        };
    }

    private static int integer(String name, String v, int min, int max) {
        try {
            int i = Integer.parseInt(v);
            if (i >= min && i <= max) return i;
        } catch (NumberFormatException e) {
            // named below
        }
        throw bad(name + "=" + v + ": a whole number from " + min + " to " + max);
    }

    private static IllegalArgumentException bad(String what) {
        return new IllegalArgumentException("libfdk_aac: " + what);
    }
}
