package org.groovecast.host.clock;

import java.util.function.Consumer;
import org.groovecast.api.Frame;
import org.groovecast.api.TickCache;

/**
 * The tick cache of a source with several consumers: the frame it filled this tick, from which each
 * consumer gets its part. Every frame of a clock covers the same span, so a consumer's position is
 * a position in this frame too; what the first consumer to reach it asked for is computed once, the
 * others are served the copy, and a track end (a break) reaches each of them where it happened. One
 * clock thread, no allocation per tick.
 */
final class SharedFrame implements TickCache {
    private final Frame memo;
    private final Consumer<Frame> fill;

    SharedFrame(Frame memo, Consumer<Frame> fill) {
        this.memo = memo;
        this.fill = fill;
    }

    @Override
    public void get(Frame frame) {
        int p = frame.position();
        while (memo.position() <= p && !memo.isFull()) {
            int before = memo.position();
            fill.accept(memo);
            if (memo.position() == before) break; // nothing more this tick: a track end, not a loop
        }
        if (memo.position() <= p || emptyGets(frame, p) < Math.min(1, emptyGets(memo, p))) {
            // Nothing more, or a track that ended exactly at p (an empty get) this consumer has not
            // seen yet: without it a second consumer would run two tracks together at a frame
            // boundary. One is enough: the empty gets in a row another consumer made while the
            // source had nothing are one boundary, and a consumer made to replay them all gives up
            // (an output stops after 4 in a row) and never gets the track nor its metadata.
            return;
        }
        int end = memo.position();
        for (int i = 0; i < memo.breakCount(); i++) {
            int b = memo.breakPosition(i);
            if (b > p) {
                end = b;
                break;
            }
        }
        frame.copyFrom(memo, p, Math.min(end, frame.end()));
    }

    @Override
    public long remainingFor(Frame frame, long remaining) {
        int p = frame.position();
        int filled = memo.position();
        if (filled <= p) return remaining;
        for (int i = 0; i < memo.breakCount(); i++) {
            int b = memo.breakPosition(i);
            if (b > p && b < filled)
                return b - p; // the track ends inside what was already produced
        }
        if (filled < memo.end())
            return filled - p; // the last fill stopped short: its track ended there
        return remaining < 0 ? -1 : remaining + filled - p;
    }

    @Override
    public void clear() {
        memo.clear();
    }

    /** How many gets ended at {@code p} without producing anything (track ends exactly there). */
    private static int emptyGets(Frame f, int p) {
        int count = 0;
        int previous = 0;
        for (int i = 0; i < f.breakCount(); i++) {
            int b = f.breakPosition(i);
            if (b == p && previous == p) count++;
            previous = b;
        }
        return count;
    }
}
