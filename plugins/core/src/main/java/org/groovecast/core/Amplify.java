package org.groovecast.core;

import java.util.function.DoubleSupplier;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.Transform;

/**
 * Multiplies the signal by a factor: a constant, or one read again at every frame (a script
 * function, an interactive variable) so that a station can follow a control.
 */
final class Amplify extends Transform {
    private final DoubleSupplier factor;
    private float current;

    Amplify(DoubleSupplier factor, Source source) {
        super("amplify", source);
        this.factor = factor;
        this.current = (float) factor.getAsDouble();
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        input.get(frame);
        int to = frame.position();
        float next = (float) factor.getAsDouble();
        if (next == current) {
            for (float[] plane : frame.pcm()) {
                for (int i = from; i < to; i++) plane[i] *= next;
            }
            return;
        }
        // A new factor ramps in over this frame: a jump from one sample to the next would click.
        float step = (next - current) / Math.max(1, to - from);
        for (float[] plane : frame.pcm()) {
            for (int i = from; i < to; i++) plane[i] *= current + step * (i - from + 1);
        }
        if (to > from) current = next;
    }
}
