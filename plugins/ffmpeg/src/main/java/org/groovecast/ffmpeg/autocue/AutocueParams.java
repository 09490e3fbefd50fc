package org.groovecast.ffmpeg.autocue;

/**
 * What the autocue analysis looks for, in LU relative to the file's integrated loudness (Liquidsoap
 * 2.4's {@code settings.autocue.internal.*}, the same defaults).
 *
 * @param lufsTarget the loudness {@code liq_amplify} brings each file to, LUFS
 * @param cueInThreshold the track starts where it first gets this loud
 * @param cueOutThreshold it ends after it was last this loud
 * @param crossThreshold the next track may start after the ending was last this loud
 * @param maxOverlap the longest fade-out (overlap with the next track), seconds
 * @param sustained whether an ending that stays loud is looked for ({@link SustainedEnding})
 */
public record AutocueParams(
        double lufsTarget,
        double cueInThreshold,
        double cueOutThreshold,
        double crossThreshold,
        double maxOverlap,
        Sustained sustained) {
    public static final AutocueParams DEFAULTS =
            new AutocueParams(-14, -34, -42, -7, 6, Sustained.DEFAULTS);

    /**
     * Liquidsoap's {@code sustained_endings_*}.
     *
     * @param enabled look for them at all
     * @param dropoff how far (%) under the crossing threshold the ending's first half may be and
     *     still count as loud
     * @param slope how much (%) the ending's second half may fall from its first half
     * @param minDuration the shortest stretch between crossing point and cue-out worth looking at,
     *     seconds
     * @param thresholdLimit how far the crossing threshold may be lowered (a factor)
     */
    record Sustained(
            boolean enabled,
            double dropoff,
            double slope,
            double minDuration,
            double thresholdLimit) {
        static final Sustained DEFAULTS = new Sustained(true, 15, 20, 1, 2);
    }
}
