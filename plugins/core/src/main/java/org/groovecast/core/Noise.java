package org.groovecast.core;

import java.util.SplittableRandom;
import org.groovecast.api.Frame;
import org.groovecast.api.Generator;

/** Endless white noise, independent per channel. */
final class Noise extends Generator {
    private final float amplitude;
    private final SplittableRandom random = new SplittableRandom();

    Noise(double amplitude) {
        super("noise");
        this.amplitude = (float) amplitude;
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        for (float[] plane : frame.pcm()) {
            for (int i = from, to = frame.end(); i < to; i++)
                plane[i] = amplitude * (float) (random.nextDouble() * 2 - 1);
        }
        frame.advance(frame.free());
    }
}
