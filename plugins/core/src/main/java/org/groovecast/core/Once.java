package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.Transform;

/** Plays the first track of its source, then is never ready again. */
final class Once extends Transform {
    private boolean done;

    Once(Source source) {
        super("once", source);
    }

    @Override
    public boolean isReady() {
        return !done && input.isReady();
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    public long remaining() {
        return done ? 0 : input.remaining();
    }

    @Override
    protected void generate(Frame frame) {
        input.get(frame);
        if (frame.position() < frame.end()) done = true;
    }
}
