package org.groovecast.dsp;

import org.groovecast.api.Frame;
import org.groovecast.api.LoudnessMeter;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code normalize(s, target: -14, lufs: true, threshold: -40)}: brings the short-term loudness
 * (EBU R128, 3 s; with {@code lufs: false} the plain RMS level in dBFS) to the target with a smooth
 * gain. The gain moves towards {@code target - loudness} by at most {@code rate} dB per second,
 * except in the first second, where it settles at once; it is limited to {@code maxGain} dB. Below
 * {@code threshold} (LUFS, or dBFS without {@code lufs}) the gain is not adapted but held where it
 * was, as Liquidsoap's {@code normalize} does with the same default: pauses, fades and near-silence
 * are not pumped up, and an input that stays that quiet is left as it is. The gain is interpolated
 * sample by sample, so changes never click.
 */
final class Normalize extends Transform {
    private final double threshold;
    private final double target;
    private final double maxGain;
    private final double rate;
    private final boolean lufs;
    private LoudnessMeter meter;
    private double gainDb;
    private long samples;
    private int sampleRate;

    Normalize(
            Source input,
            double target,
            double maxGain,
            double rate,
            boolean lufs,
            double threshold) {
        super("normalize", input);
        this.threshold = threshold;
        this.target = target;
        this.maxGain = maxGain;
        this.rate = rate;
        this.lufs = lufs;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        meter = new LoudnessMeter(context.format().channels(), context.format().sampleRate(), lufs);
        sampleRate = context.format().sampleRate();
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        input.get(frame);
        int end = frame.position();
        if (end == start) return;
        meter.add(frame.pcm(), start, end);
        samples += end - start;
        double loudness = meter.shortTerm();
        double from = gainDb;
        if (loudness >= threshold) {
            double wanted = Math.min(maxGain, target - loudness);
            double step = rate * (end - start) / sampleRate;
            gainDb =
                    samples < sampleRate
                            ? wanted
                            : from + Math.max(-step, Math.min(step, wanted - from));
        }
        double g0 = Math.pow(10, from / 20);
        double g1 = Math.pow(10, gainDb / 20);
        float[][] pcm = frame.pcm();
        int n = end - start;
        for (int i = 0; i < n; i++) {
            float g = (float) (g0 + (g1 - g0) * (i + 1) / n);
            for (float[] plane : pcm) plane[start + i] *= g;
        }
    }

    @Override
    public java.util.Map<String, Object> readings() {
        return java.util.Map.of("gain", Math.round(gainDb * 100) / 100.0);
    }

    /** The gain applied now, in dB. */
    public double getGain() {
        return gainDb;
    }
}
