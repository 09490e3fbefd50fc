package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code maxDuration(seconds, s)}: ends each track of its source after that long, to the sample,
 * and skips the rest of it, so the source's next track follows. Unlike {@code tracks(duration:)},
 * which splits a long track into several, nothing of a cut track plays.
 */
final class MaxDuration extends Transform {
    private final double seconds;
    private long limit;
    private long played;
    private boolean restarting;

    MaxDuration(double seconds, Source source) {
        super("maxDuration", source);
        this.seconds = seconds;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        limit = Math.max(1, context.samples(seconds));
    }

    @Override
    public long remaining() {
        long inner = input.remaining();
        long left = Math.max(0, limit - played);
        return inner < 0 ? left : Math.min(inner, left);
    }

    @Override
    protected void generate(Frame frame) {
        if (played >= limit) {
            cut(); // the cut fell on the end of the last frame: end our track here, at the start of
            // this one
            return;
        }
        int before = frame.position();
        int want = (int) Math.min(frame.free(), limit - played);
        int end = frame.limit(before + want);
        input.get(frame);
        if (restarting && frame.position() == before && input.isReady()) {
            input.get(
                    frame); // the cut track's own end, owed by the input: the next track starts now
        }
        restarting = false;
        frame.limit(end);
        int produced = frame.position() - before;
        played += produced;
        if (produced < want) {
            played = 0; // the source's own track ended first
        } else if (played >= limit && !frame.isFull()) {
            cut();
        }
    }

    /** Ends our track at the frame's position and drops the rest of the source's. */
    private void cut() {
        // A track that ends right here on its own needs no skip; a skip would drop the next one.
        if (input.remaining() != 0) input.abortTrack();
        played = 0;
        restarting = true;
    }
}
