package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;

/** Multiplies the signal by a constant factor. */
final class Amplify extends Source {
    private final Source source;
    private final float factor;

    Amplify(double factor, Source source) {
        super("amplify", source);
        this.source = source;
        this.factor = (float) factor;
    }

    @Override
    public boolean isReady() {
        return source.isReady();
    }

    @Override
    public boolean isFallible() {
        return source.isFallible();
    }

    @Override
    public long remaining() {
        return source.remaining();
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        source.get(frame);
        int to = frame.position();
        for (float[] plane : frame.pcm()) {
            for (int i = from; i < to; i++) plane[i] *= factor;
        }
    }
}
