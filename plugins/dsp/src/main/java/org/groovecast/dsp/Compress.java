package org.groovecast.dsp;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code compress(s, threshold: -20, ratio: 4, attack: 10, release: 100, gain: 0)}: a feed-forward
 * compressor on the louder channel's level (stereo linked, so the image does not wander): above
 * {@code threshold} dBFS the level rises only {@code 1/ratio} as fast; the gain reduction follows
 * in {@code attack} ms and recovers in {@code release} ms; {@code gain} dB of make-up after.
 */
final class Compress extends Transform {
    private final double threshold;
    private final double ratio;
    private final double attackMs;
    private final double releaseMs;
    private final double makeUp;
    private double attack;
    private double release;
    private double envelope;
    private double reduction;

    Compress(
            Source input,
            double threshold,
            double ratio,
            double attackMs,
            double releaseMs,
            double makeUp) {
        super("compress", input);
        this.threshold = threshold;
        this.ratio = ratio;
        this.attackMs = attackMs;
        this.releaseMs = releaseMs;
        this.makeUp = makeUp;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        int rate = context.format().sampleRate();
        attack = Math.exp(-1 / (Math.max(0.01, attackMs) / 1000 * rate));
        release = Math.exp(-1 / (Math.max(0.01, releaseMs) / 1000 * rate));
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        input.get(frame);
        float[][] pcm = frame.pcm();
        double slope = 1 - 1 / ratio;
        for (int i = start, end = frame.position(); i < end; i++) {
            double peak = 0;
            for (float[] plane : pcm) peak = Math.max(peak, Math.abs(plane[i]));
            // Peak envelope: rises with the attack, falls with the release.
            envelope =
                    peak > envelope
                            ? attack * envelope + (1 - attack) * peak
                            : release * envelope + (1 - release) * peak;
            double level = 20 * Math.log10(Math.max(envelope, 1e-9));
            double wanted = level > threshold ? (level - threshold) * slope : 0;
            reduction =
                    wanted > reduction
                            ? attack * reduction + (1 - attack) * wanted
                            : release * reduction + (1 - release) * wanted;
            float g = (float) Math.pow(10, (makeUp - reduction) / 20);
            for (float[] plane : pcm) plane[i] *= g;
        }
    }
}
