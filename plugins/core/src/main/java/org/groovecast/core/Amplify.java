package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.Transform;

/** Multiplies the signal by a constant factor. */
final class Amplify extends Transform {
    private final float factor;

    Amplify(double factor, Source source) {
        super("amplify", source);
        this.factor = (float) factor;
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        input.get(frame);
        int to = frame.position();
        for (float[] plane : frame.pcm()) {
            for (int i = from; i < to; i++) plane[i] *= factor;
        }
    }
}
