package org.groovecast.dsp;

import org.groovecast.api.Frame;

/**
 * Silence detection shared by the blank operators: a stretch is blank when its RMS level (louder
 * channel) is under the threshold; {@link #add} keeps count of how long the silence has lasted.
 */
final class Blank {
    private final double threshold;
    private long silent;

    /**
     * @param thresholdDb level in dBFS below which audio counts as silence
     */
    Blank(double thresholdDb) {
        this.threshold = Math.pow(10, thresholdDb / 20);
    }

    /**
     * Checks samples [from, to); returns how many samples the silence has lasted (0 if they are
     * loud).
     */
    long add(Frame frame, int from, int to) {
        if (to <= from) return silent;
        double loudest = 0;
        for (float[] plane : frame.pcm()) {
            double sum = 0;
            for (int i = from; i < to; i++) sum += plane[i] * plane[i];
            loudest = Math.max(loudest, Math.sqrt(sum / (to - from)));
        }
        silent = loudest < threshold ? silent + (to - from) : 0;
        return silent;
    }

    void reset() {
        silent = 0;
    }
}
