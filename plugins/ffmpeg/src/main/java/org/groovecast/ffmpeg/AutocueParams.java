package org.groovecast.ffmpeg;

/**
 * What the autocue analysis looks for, in LU relative to the file's integrated loudness (Liquidsoap
 * 2.4's {@code settings.autocue.internal.*}, the same defaults).
 *
 * @param lufsTarget the loudness {@code liq_amplify} brings each file to, LUFS
 * @param cueInThreshold the track starts where it first gets this loud
 * @param cueOutThreshold it ends after it was last this loud
 * @param crossThreshold the next track may start after the ending was last this loud
 * @param maxOverlap the longest fade-out (overlap with the next track), seconds
 */
record AutocueParams(
        double lufsTarget,
        double cueInThreshold,
        double cueOutThreshold,
        double crossThreshold,
        double maxOverlap) {
    static final AutocueParams DEFAULTS = new AutocueParams(-14, -34, -42, -7, 6);
}
