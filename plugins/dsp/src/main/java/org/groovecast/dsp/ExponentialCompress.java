package org.groovecast.dsp;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.Transform;

/**
 * {@code compress.exponential(s, mu: 2)}: a static curve on each sample, {@code sign(x) (1 - (1 -
 * |x|)^mu)}, as Liquidsoap's: quiet samples rise, full scale stays full scale. {@code mu} 1 is the
 * identity (AzuraCast's generated script asks for it), passed through without touching a sample.
 */
final class ExponentialCompress extends Transform {
    private final double mu;

    ExponentialCompress(Source input, double mu) {
        super("compress.exponential", input);
        this.mu = mu;
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        input.get(frame);
        if (mu == 1) return;
        float[][] pcm = frame.pcm();
        for (float[] plane : pcm) {
            for (int i = start, end = frame.position(); i < end; i++) {
                float x = plane[i];
                float y = (float) (1 - Math.pow(1 - Math.min(1f, Math.abs(x)), mu));
                plane[i] = x < 0 ? -y : y;
            }
        }
    }
}
