package org.groovecast.dsp;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.Transform;

/**
 * Multiplies its input by a gain the test changes between pulls: 0 is dead air on demand for the
 * blank operators, a jump is a sudden change of level for normalize.
 */
final class Gain extends Transform {
    float gain = 1f;

    Gain(Source input) {
        super("gain", input);
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        input.get(frame);
        for (float[] plane : frame.pcm()) {
            for (int i = from; i < frame.position(); i++) plane[i] *= gain;
        }
    }
}
