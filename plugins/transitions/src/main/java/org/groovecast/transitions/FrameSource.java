package org.groovecast.transitions;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;

/**
 * One end of a transition as a source for the script's transition function: it plays the samples
 * (and metadata) held in a frame once, as one track, then is unavailable.
 */
final class FrameSource extends Source {
    private final Frame held;
    private final int length;
    private int at;

    FrameSource(String kind, Frame held) {
        super(kind);
        this.held = held;
        this.length = held.position();
    }

    @Override
    public boolean isReady() {
        return at < length;
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    public long remaining() {
        return length - at;
    }

    @Override
    protected void generate(Frame frame) {
        int n = Math.min(frame.free(), length - at);
        frame.copyFrom(held, at, at + n);
        at += n;
    }
}
