package org.groovecast.core;

import java.util.SplittableRandom;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;

/** Endless white noise, independent per channel. */
final class Noise extends Source {
    private final float amplitude;
    private final SplittableRandom random = new SplittableRandom();

    Noise(double amplitude) {
        super("noise");
        this.amplitude = (float) amplitude;
    }

    @Override
    public boolean isReady() {
        return true;
    }

    @Override
    public boolean isFallible() {
        return false;
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        for (float[] plane : frame.pcm()) {
            for (int i = from, to = frame.end(); i < to; i++) plane[i] = amplitude * (float) (random.nextDouble() * 2 - 1);
        }
        frame.advance(frame.free());
    }
}
