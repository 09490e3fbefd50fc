package org.groovecast.ffmpeg.autocue;

/**
 * A track that ends loud (a held chord, a fade that stays high) has its crossing point found again
 * with a lower threshold, as Liquidsoap 2.4's autocue does: the stretch between the regular
 * crossing point and the cue-out (less 0.5 s at each end) is split in halves; when the later half
 * is nearly as loud as the earlier one (the slope) or the earlier one is well above the crossing
 * threshold (the drop-off), the threshold comes down to that half's loudness, and the crossing
 * point moves later, to where the ending is last that loud.
 */
final class SustainedEnding {
    private SustainedEnding() {}

    /**
     * What the end of a track looks like from its loudness readings.
     *
     * @param cueOut seconds; 0 when it never fell below the cue-out threshold
     * @param cross seconds
     * @param stop the reading of the cue-out
     * @param start the reading of the crossing point
     */
    record Ending(double cueOut, double cross, int stop, int start) {}

    /** Scanning from the end: where it was last above each threshold. */
    static Ending scan(float[] m, double cueOutLevel, double crossLevel) {
        double later = 0, cueOut = 0, cross = 0;
        int stop = 0, start = 0;
        boolean outFound = false;
        for (int k = m.length - 1; k >= 0; k--) {
            if (!outFound && m[k] > cueOutLevel) {
                cueOut = later;
                stop = k;
                outFound = true;
            } else if (m[k] > crossLevel) {
                cross = later;
                start = k;
                break;
            }
            later = LoudnessProfile.time(k);
        }
        return new Ending(cueOut, cross, stop, start);
    }

    /** {@code e} moved for a sustained ending, or {@code e} itself when the ending is not one. */
    static Ending refine(
            float[] m, Ending e, double cueOutLevel, double crossLevel, AutocueParams.Sustained s) {
        double start = e.start() + 5, stop = e.stop() - 5;
        double length = stop - start, mid = stop - length / 2;
        if (length < s.minDuration() / LoudnessProfile.STEP) return e;
        double first = 0, second = 0;
        for (int k = m.length - 1; k >= start; k--) {
            if (k < stop && k > mid) second = second < 0 ? (second + m[k]) / 2 : m[k];
            if (k > start && k < mid) first = first < 0 ? (first + m[k]) / 2 : m[k];
        }
        if (!(first < 0)) return e;
        double slope = second < 0 ? first / second : 0;
        boolean bySlope = slope > 1 - s.slope() / 100;
        boolean byDropoff = first > crossLevel * (s.dropoff() / 100 + 1);
        if (!bySlope && !byDropoff) return e;
        double lowered =
                Math.max(crossLevel * s.thresholdLimit(), (bySlope ? second : first) - 0.5);
        // Liquidsoap 2.4.5 lowers the cue-out threshold as well, but under a new name its scan
        // does not read: the scan keeps the regular one, and so does this.
        double cueOut = 0, cross = 0, later = 0;
        boolean outFound = false;
        for (int k = m.length - 1; k >= 0; k--) {
            double t = LoudnessProfile.time(k);
            if (!outFound && m[k] > cueOutLevel) {
                cueOut = later;
                outFound = true;
            }
            if (m[k] > lowered) {
                cross = t;
                break;
            }
            later = t;
        }
        return new Ending(cueOut, cross, e.stop(), e.start());
    }
}
