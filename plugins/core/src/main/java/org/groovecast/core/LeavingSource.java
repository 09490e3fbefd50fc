package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;

/**
 * The {@code from} of a switch's transition: the input being left, going on from where it was,
 * until its track ends or the transition's length is played, whichever comes first; then it is
 * done. It says how much is left, so that {@code fade.out(from)} fades it out across the
 * transition. It declares no inputs: the clock drives the real input, and the transition's graph
 * must not count it as a second consumer.
 */
final class LeavingSource extends Source {
    private final Source from;
    private long left;
    private boolean pulled;

    LeavingSource(Source from, long samples) {
        super("transition.from");
        this.from = from;
        this.left = samples;
    }

    @Override
    public boolean isReady() {
        return left > 0 && from.isReady();
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    public long remaining() {
        long r = from.remaining();
        return r < 0 ? left : Math.min(r, left);
    }

    /** A skip inside the transition ends the old input's part in it. */
    @Override
    public void abortTrack() {
        left = 0;
    }

    /** Whether the transition played any of the old input. */
    boolean pulled() {
        return pulled;
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        int allow = (int) Math.min(frame.free(), left);
        int end = frame.limit(start + allow);
        from.get(frame);
        frame.limit(end);
        int got = frame.position() - start;
        if (got > 0) pulled = true;
        left -= got;
        if (got < allow) left = 0; // its track ended: the next one is not part of the transition
    }
}
