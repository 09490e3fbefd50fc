package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;

/**
 * The {@code to} of a switch's transition: the newly selected input as the switch plays it (its
 * last metadata replayed if asked), so that the transition and the switch after it read one stream.
 * Once its track ends the transition is over. Like {@link LeavingSource} it declares no inputs.
 */
final class ArrivingSource extends Source {
    /** How the switch pulls its selected input. */
    @FunctionalInterface
    interface Pull {
        void pull(Frame frame);
    }

    private final Source to;
    private final Pull pull;
    private boolean ended;

    ArrivingSource(Source to, Pull pull) {
        super("transition.to");
        this.to = to;
        this.pull = pull;
    }

    @Override
    public boolean isReady() {
        return !ended && to.isReady();
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    public long remaining() {
        return ended ? 0 : to.remaining();
    }

    @Override
    public void abortTrack() {
        to.abortTrack();
    }

    /** Whether the input's track ended inside the transition. */
    boolean ended() {
        return ended;
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        pull.pull(frame);
        if (frame.position() < frame.end() || frame.position() == start) ended = true;
    }
}
