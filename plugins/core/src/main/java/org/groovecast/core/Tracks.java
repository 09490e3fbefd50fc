package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * Cuts its source into tracks of a fixed length; a track of the source that ends first ends ours
 * too.
 */
final class Tracks extends Transform {
    private final double duration;
    private long trackLength;
    private long left;

    Tracks(Source source, double duration) {
        super("tracks", source);
        this.duration = duration;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        trackLength = Math.max(1, context.samples(duration));
        left = trackLength;
    }

    @Override
    public long remaining() {
        long inner = input.remaining();
        return inner < 0 ? left : Math.min(inner, left);
    }

    /** Ends our track, not the source's: the next one starts where the source stands. */
    @Override
    public void abortTrack() {
        endTrack();
    }

    @Override
    protected void dropTrack() {
        left = trackLength;
    }

    @Override
    protected void generate(Frame frame) {
        if (left == 0) {
            left = trackLength;
            return;
        }
        int before = frame.position();
        int want = (int) Math.min(frame.free(), left);
        int end = frame.limit(before + want);
        input.get(frame);
        frame.limit(end);
        int produced = frame.position() - before;
        left -= produced;
        if (produced < want) {
            left = trackLength; // the source's own track ended
        } else if (left == 0 && !frame.isFull()) {
            left = trackLength;
        }
    }
}
