package org.groovecast.ffmpeg.autocue;

/**
 * Where a file's track really starts and ends, found in its loudness over time as Liquidsoap 2.4's
 * internal autocue finds them: the cue-in a little before the loudness first passes {@code
 * cueInThreshold} below the file's integrated loudness (with a 0.2 s fade-in rather than a hard
 * cut), the cue-out after it was last above {@code cueOutThreshold}, and the fade-out from the last
 * moment above {@code crossThreshold}, which is also where the next track may start (later for an
 * ending that stays loud: {@link SustainedEnding}). Times in seconds from the file's start.
 *
 * @param amplify dB that bring the file to the target loudness
 */
record AutocuePoints(double cueIn, double cueOut, double fadeIn, double fadeOut, double amplify) {
    /** Ahead of the first loud moment, so that its attack is not clipped. */
    private static final double MARGIN = 0.1;

    /** A cue-in this late fades in over this long instead of cutting in. */
    private static final double FADE_IN = 0.2;

    /** The points of {@code p}, or null for a silent file (nothing to measure against). */
    static AutocuePoints of(LoudnessProfile p, AutocueParams s) {
        double lufs = p.integrated();
        if (!Double.isFinite(lufs)) return null;
        float[] m = p.momentary();
        double cueIn = firstRise(m, lufs + s.cueInThreshold());
        double cueOutLevel = lufs + s.cueOutThreshold(), crossLevel = lufs + s.crossThreshold();
        SustainedEnding.Ending end = SustainedEnding.scan(m, cueOutLevel, crossLevel);
        if (s.sustained().enabled())
            end = SustainedEnding.refine(m, end, cueOutLevel, crossLevel, s.sustained());
        double cueOut = end.cueOut(), cross = end.cross();
        if (cueOut == 0) cueOut = p.duration();
        double fadeOut = cross + 0.1 < cueOut ? cueOut - cross : 0;
        cueIn -= MARGIN;
        double fadeIn = 0;
        if (cueIn > FADE_IN) {
            fadeIn = FADE_IN;
            cueIn -= FADE_IN;
        }
        if (cueIn <= FADE_IN) {
            fadeIn = 0;
            cueIn = 0;
        }
        fadeIn = Math.min(fadeIn, s.maxOverlap());
        if (fadeOut > s.maxOverlap()) {
            cueOut -= fadeOut - s.maxOverlap();
            fadeOut = s.maxOverlap();
        }
        return new AutocuePoints(cueIn, cueOut, fadeIn, fadeOut, s.lufsTarget() - lufs);
    }

    /** The time of the reading before the first one above {@code threshold}; 0 if none is. */
    private static double firstRise(float[] m, double threshold) {
        double before = 0;
        for (int k = 0; k < m.length; k++) {
            if (m[k] > threshold) return before;
            before = LoudnessProfile.time(k);
        }
        return 0;
    }
}
