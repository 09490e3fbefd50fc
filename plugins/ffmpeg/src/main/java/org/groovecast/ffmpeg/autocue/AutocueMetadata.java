package org.groovecast.ffmpeg.autocue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cue points as the metadata Liquidsoap 2.4's autocue gives a track ({@code liq_cue_in}, {@code
 * liq_cue_out}, {@code liq_fade_in}, {@code liq_fade_out}, {@code liq_cross_*}, {@code
 * liq_amplify}, {@code liq_autocue}), which the request sources (cues), {@code fade.in}/{@code
 * fade.out}/{@code crossfade} (fades, overlap) and {@code amplify(override: 'liq_amplify')} apply.
 * {@code liq_cross_duration}, the overlap Groovecast's crossfade reads, is the whole fade-out: the
 * next track starts where this one starts fading.
 */
final class AutocueMetadata {
    private AutocueMetadata() {}

    /**
     * @param startNext where the next track may start (seconds from the file's start); null for the
     *     start of the fade-out
     * @param amplify a gain ({@code -3.2 dB}), or null for none
     */
    static Map<String, String> of(
            String implementation,
            double cueIn,
            double cueOut,
            double fadeIn,
            double fadeOut,
            Double startNext,
            String amplify) {
        double fadeOutStart = cueOut - fadeOut;
        if (fadeOutStart < 0) {
            fadeOut = 0;
            fadeOutStart = cueOut;
        }
        double next = startNext != null ? startNext : fadeOutStart;
        if (next < cueIn || next > cueOut) next = fadeOutStart;
        double startNextAfterFade = Math.max(0, next - fadeOutStart);
        double delay = Math.max(0, fadeOutStart - next);
        double end = fadeOut + delay;
        Map<String, String> m = new LinkedHashMap<>();
        m.put("liq_autocue", implementation);
        if (amplify != null) m.put("liq_amplify", amplify);
        m.put("liq_cue_in", number(cueIn));
        m.put("liq_cue_out", number(cueOut));
        m.put("liq_cross_start_duration", number(fadeIn));
        m.put("liq_cross_max_start_duration", number(cueOut - cueIn - end));
        m.put("liq_cross_end_duration", number(end));
        m.put("liq_cross_duration", number(end));
        m.put("liq_fade_in", number(fadeIn));
        m.put("liq_fade_out", number(fadeOut));
        m.put("liq_fade_out_start_next", number(startNextAfterFade));
        m.put("liq_fade_out_delay", number(delay));
        return m;
    }

    static Map<String, String> of(AutocuePoints p) {
        return of(
                "internal",
                p.cueIn(),
                p.cueOut(),
                p.fadeIn(),
                p.fadeOut(),
                null,
                gain(p.amplify()));
    }

    /** {@code -3.25 dB}. */
    static String gain(double db) {
        return number(db) + " dB";
    }

    /** Milliseconds are plenty: {@code 6.4}, not {@code 6.3999999}. */
    static String number(double v) {
        return BigDecimal.valueOf(v)
                .setScale(3, RoundingMode.HALF_EVEN)
                .stripTrailingZeros()
                .toPlainString();
    }
}
