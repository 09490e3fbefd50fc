package org.groovecast.testkit;

import java.util.List;
import org.groovecast.api.AudioFormat;

/**
 * What a source produced over some frames (see {@link FramePuller#pull}): the samples, laid out
 * frame after frame as the clock would send them, the positions at which tracks started, and the
 * metadata that came with them. Positions count samples per channel from the first sample of the
 * pull. Where the source produced less than a frame (it was not ready, or ran dry), the rest of
 * that frame reads as silence and {@link #produced()} is smaller than {@link #length()}.
 */
public final class Pulled {
    private final AudioFormat format;
    private final int frames;
    private final float[][] pcm;
    private final int produced;
    private final List<Integer> trackStarts;
    private final List<MetadataAt> metadata;

    Pulled(
            AudioFormat format,
            int frames,
            float[][] pcm,
            int produced,
            List<Integer> trackStarts,
            List<MetadataAt> metadata) {
        this.format = format;
        this.frames = frames;
        this.pcm = pcm;
        this.produced = produced;
        this.trackStarts = List.copyOf(trackStarts);
        this.metadata = List.copyOf(metadata);
    }

    public AudioFormat format() {
        return format;
    }

    /** Frames pulled. */
    public int frames() {
        return frames;
    }

    /** Samples per channel covered: frames times the frame size. */
    public int length() {
        return pcm[0].length;
    }

    /**
     * Samples per channel the source actually produced; less than {@link #length()} when it fell
     * short.
     */
    public int produced() {
        return produced;
    }

    /**
     * The samples of channel {@code c} ({@link #length()} of them); the array itself, not a copy.
     */
    public float[] channel(int c) {
        return pcm[c];
    }

    /**
     * Positions at which a track started: the first sample the source produced, and every first
     * sample after a track end (a get that stopped short, or a frame the source left unfilled). A
     * track that started in an earlier pull of the same puller is not listed again.
     */
    public List<Integer> trackStarts() {
        return trackStarts;
    }

    /** The metadata the source sent, in order, with where each arrived. */
    public List<MetadataAt> metadata() {
        return metadata;
    }

    /** RMS level of channel {@code c} over the whole pull (1.0 is a full-scale square wave). */
    public double rms(int c) {
        return rms(c, 0, length());
    }

    /** RMS level of channel {@code c} over samples [from, to). */
    public double rms(int c, int from, int to) {
        checkRange(from, to);
        if (to == from) return 0;
        float[] x = pcm[c];
        double sum = 0;
        for (int i = from; i < to; i++) sum += (double) x[i] * x[i];
        return Math.sqrt(sum / (to - from));
    }

    /** Largest absolute sample of channel {@code c} over the whole pull. */
    public double peak(int c) {
        return peak(c, 0, length());
    }

    /** Largest absolute sample of channel {@code c} over samples [from, to). */
    public double peak(int c, int from, int to) {
        checkRange(from, to);
        float[] x = pcm[c];
        double max = 0;
        for (int i = from; i < to; i++) max = Math.max(max, Math.abs(x[i]));
        return max;
    }

    /** Sample position of {@code seconds} into the pull, at the stream's rate. */
    public int at(double seconds) {
        return (int) format.samples(seconds);
    }

    private void checkRange(int from, int to) {
        if (from < 0 || to > length() || from > to) {
            throw new IndexOutOfBoundsException(
                    "[" + from + ", " + to + ") outside [0, " + length() + ")");
        }
    }
}
