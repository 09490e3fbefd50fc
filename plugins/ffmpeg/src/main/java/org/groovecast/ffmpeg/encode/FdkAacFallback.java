package org.groovecast.ffmpeg.encode;

import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_encoder_by_name;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.groovecast.ffmpeg.shared.Av;

/**
 * {@code libfdk_aac} where FFmpeg has no such encoder (the bundled build has none, its licence
 * keeping it out): FFmpeg's native encoder at the same bit rate, which makes AAC-LC only, so an
 * HE-AAC or HE-AACv2 stream (AzuraCast's {@code profile="aac_he_v2"}) becomes AAC-LC. What only
 * libfdk_aac takes (its profiles, afterburner, VBR modes, signalling) is dropped with it; any other
 * option goes to the native encoder, which names one it does not know.
 */
final class FdkAacFallback {
    static final String CODEC = "libfdk_aac";

    /** libfdk_aac's private options, which the native encoder has no use for. */
    private static final Set<String> FDK_ONLY =
            Set.of(
                    "profile",
                    "afterburner",
                    "vbr",
                    "eld_sbr",
                    "eld_v2",
                    "signaling",
                    "latm",
                    "header_period",
                    "frame_length",
                    "drc_profile",
                    "drc_target_ref",
                    "comp_profile",
                    "comp_target_ref",
                    "prog_ref");

    /** The native encoder and its options, and the warning that names the downgrade. */
    record Substitute(String codec, Map<String, String> options, String warning) {}

    private FdkAacFallback() {}

    /** Whether {@code codec} is libfdk_aac and this FFmpeg has no encoder by that name. */
    static boolean needed(String codec) {
        if (!CODEC.equals(codec)) return false;
        Av.init();
        AVCodec enc = avcodec_find_encoder_by_name(CODEC);
        return enc == null || enc.isNull();
    }

    /** What replaces libfdk_aac with {@code options}. */
    static Substitute substitute(Map<String, String> options) {
        Map<String, String> kept = new LinkedHashMap<>();
        options.forEach(
                (k, v) -> {
                    if (!FDK_ONLY.contains(k)) kept.put(k, v);
                });
        String profile = options.getOrDefault("profile", "aac_low");
        String rate = options.containsKey("b") ? options.get("b") : "the native default";
        String warning =
                "libfdk_aac is not available (this FFmpeg is built without it): "
                        + "FFmpeg's native AAC-LC at "
                        + rate
                        + (profile.equals("aac_low")
                                ? " instead of libfdk_aac's AAC-LC"
                                : " instead of " + name(profile) + " (profile=" + profile + ")")
                        + (options.containsKey("vbr") && !options.containsKey("b")
                                ? ", its vbr=" + options.get("vbr") + " left out"
                                : "");
        return new Substitute("aac", kept, warning);
    }

    private static String name(String profile) {
        return switch (profile) {
            case "aac_he" -> "HE-AAC";
            case "aac_he_v2" -> "HE-AACv2";
            case "aac_ld" -> "AAC-LD";
            case "aac_eld" -> "AAC-ELD";
            default -> profile;
        };
    }
}
