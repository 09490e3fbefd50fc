package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;

/** Plays the first track of its source, then is never ready again. */
final class Once extends Source {
    private final Source source;
    private boolean done;

    Once(Source source) {
        super("once", source);
        this.source = source;
    }

    @Override
    public boolean isReady() {
        return !done && source.isReady();
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    public long remaining() {
        return done ? 0 : source.remaining();
    }

    @Override
    protected void generate(Frame frame) {
        source.get(frame);
        if (frame.position() < frame.end()) done = true;
    }
}
