package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.StreamContext;

/** Silence; endless, or in tracks of {@code duration} seconds. */
final class Blank extends Generator {
    private final double duration;
    private long trackLength;
    private long left;

    Blank(double duration) {
        super("blank");
        this.duration = duration;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        trackLength = duration > 0 ? Math.max(1, context.samples(duration)) : -1;
        left = trackLength;
    }

    @Override
    public long remaining() {
        return left;
    }

    /** A skip (the default for a source without inputs) starts the next track. */
    @Override
    protected void dropTrack() {
        left = trackLength;
    }

    @Override
    protected void generate(Frame frame) {
        if (trackLength < 0) {
            frame.silence(frame.free());
            return;
        }
        if (left == 0) {
            left = trackLength;
            return;
        }
        int n = (int) Math.min(frame.free(), left);
        frame.silence(n);
        left -= n;
        if (left == 0 && !frame.isFull()) left = trackLength;
    }
}
