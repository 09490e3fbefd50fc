package org.groovecast.api;

/**
 * EBU R128 loudness of a stream (ITU-R BS.1770-4): momentary (400 ms), short-term (3 s) and
 * integrated (gated: blocks of 400 ms every 100 ms, absolute gate -70 LUFS, relative gate 10 LU
 * below the mean of the blocks above it). Integrated loudness keeps a histogram of block loudness
 * in 0.01 LU steps, so it costs the same after ten minutes as after ten seconds. The {@code lufs}
 * and {@code normalize} operators measure with it, and so does the autocue analysis of files, so
 * that the figures agree.
 */
public final class LoudnessMeter {
    private static final int SHORT_BLOCKS = 30;
    private static final double MIN_LU = -70;
    private static final double STEP = 0.01;
    private static final int BINS = (int) ((5 - MIN_LU) / STEP) + 1;

    private final KWeighting[] filters;
    private final boolean weighted;
    private final int subBlock;
    private final double[] subEnergy = new double[SHORT_BLOCKS];
    private final long[] histogram = new long[BINS];
    private final double[] binEnergy = new double[BINS];
    private int subCount;
    private long subBlocks;
    private double current;
    private int inSub;

    public LoudnessMeter(int channels, int sampleRate) {
        this(channels, sampleRate, true);
    }

    /**
     * @param weighted true for EBU R128 (K-weighted, LUFS); false for the plain RMS level of the
     *     channels' mean square, in dBFS (a full-scale sine reads -3)
     */
    public LoudnessMeter(int channels, int sampleRate, boolean weighted) {
        this.weighted = weighted;
        filters = new KWeighting[channels];
        for (int c = 0; c < channels; c++) filters[c] = new KWeighting(sampleRate);
        subBlock = sampleRate / 10;
        for (int i = 0; i < BINS; i++) binEnergy[i] = energyOf(MIN_LU + i * STEP);
    }

    /** Feeds samples [from, to) of the planes. */
    public void add(float[][] pcm, int from, int to) {
        int i = from;
        while (i < to) {
            int n = Math.min(to - i, subBlock - inSub);
            double e = 0;
            for (int c = 0; c < filters.length; c++) {
                if (weighted) {
                    e += filters[c].energy(pcm[c], i, i + n);
                } else {
                    float[] x = pcm[c];
                    for (int j = i; j < i + n; j++) e += (double) x[j] * x[j] / filters.length;
                }
            }
            current += e;
            inSub += n;
            i += n;
            if (inSub == subBlock) endSubBlock();
        }
    }

    private void endSubBlock() {
        subEnergy[(int) (subBlocks % SHORT_BLOCKS)] = current / subBlock;
        subBlocks++;
        current = 0;
        inSub = 0;
        if (subBlocks >= 4) {
            double block = mean(4);
            double lu = loudnessOf(block);
            if (lu >= MIN_LU) histogram[Math.min(BINS - 1, (int) ((lu - MIN_LU) / STEP))]++;
        }
    }

    private double mean(int blocks) {
        int n = (int) Math.min(blocks, subBlocks);
        if (n == 0) return 0;
        double sum = 0;
        for (int k = 1; k <= n; k++) sum += subEnergy[(int) ((subBlocks - k) % SHORT_BLOCKS)];
        return sum / n;
    }

    /** Loudness over the last 400 ms, in LUFS (-infinity for silence or before 400 ms). */
    public double momentary() {
        return subBlocks < 4 ? Double.NEGATIVE_INFINITY : loudnessOf(mean(4));
    }

    /** Loudness over the last 3 s (or what there is, from 400 ms), in LUFS. */
    public double shortTerm() {
        return subBlocks < 4 ? Double.NEGATIVE_INFINITY : loudnessOf(mean(SHORT_BLOCKS));
    }

    /** Gated loudness since the start, in LUFS. */
    public double integrated() {
        double sum = 0;
        long n = 0;
        for (int i = 0; i < BINS; i++) {
            sum += histogram[i] * binEnergy[i];
            n += histogram[i];
        }
        if (n == 0) return Double.NEGATIVE_INFINITY;
        double relative = loudnessOf(sum / n) - 10;
        int first = Math.max(0, (int) Math.ceil((relative - MIN_LU) / STEP));
        sum = 0;
        n = 0;
        for (int i = first; i < BINS; i++) {
            sum += histogram[i] * binEnergy[i];
            n += histogram[i];
        }
        return n == 0 ? Double.NEGATIVE_INFINITY : loudnessOf(sum / n);
    }

    private double loudnessOf(double energy) {
        if (energy <= 0) return Double.NEGATIVE_INFINITY;
        return (weighted ? -0.691 : 0) + 10 * Math.log10(energy);
    }

    /** The inverse of {@link #loudnessOf}. */
    private double energyOf(double level) {
        return Math.pow(10, (level + (weighted ? 0.691 : 0)) / 10);
    }
}
