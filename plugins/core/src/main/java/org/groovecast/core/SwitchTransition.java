package org.groovecast.core;

import org.groovecast.api.ClockInfo;
import org.groovecast.api.Frame;
import org.groovecast.api.Registration;
import org.groovecast.api.Source;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transition of a switch on air: the source the script's {@code { from, to -> source }}
 * returned, played in place of the newly selected input until its first track ends, the new input's
 * track ends, or the transition length is reached; then the input goes on in the same track. The
 * nodes the function created are not known to the clock, so they are ticked here, on the first pull
 * of each tick. When the transition ends, what the function registered is released, and the old
 * input, if the transition left it in the middle of a track, has that track ended, as a switch
 * without a transition does at once.
 *
 * <p>The transition renders through a frame of the clock's size, at the clock's positions where
 * they fit, so its operators see the frames they expect even when a consumer reads ahead in longer
 * frames (a crossfade).
 */
final class SwitchTransition {
    private static final Logger log = LoggerFactory.getLogger(SwitchTransition.class);

    private final Source source;
    private final Source[] nodes;
    private final LeavingSource leaving;
    private final ArrivingSource arriving;
    private final Registration registrations;
    private final Source from;
    private final boolean cut;
    private final ClockInfo clock;
    private final Frame chunk;
    private long left;
    private long tick = -1;
    private boolean done;
    private boolean finished;
    private boolean callbackReported;

    SwitchTransition(
            Source source,
            Source[] nodes,
            LeavingSource leaving,
            ArrivingSource arriving,
            Registration registrations,
            Source from,
            boolean cut,
            long samples,
            ClockInfo clock,
            Frame chunk) {
        this.source = source;
        this.nodes = nodes;
        this.leaving = leaving;
        this.arriving = arriving;
        this.registrations = registrations;
        this.from = from;
        this.cut = cut;
        this.left = samples;
        this.clock = clock;
        this.chunk = chunk;
    }

    boolean isReady() {
        return !done && source.isReady();
    }

    /** Whether the transition has played out; the selected input follows. */
    boolean isDone() {
        return done;
    }

    /**
     * Whether the new input's track ended inside the transition: the switch's track ends there too.
     */
    boolean endedTrack() {
        return arriving.ended();
    }

    /**
     * Plays the transition into {@code frame} from its position, until the frame is full or the
     * transition done.
     */
    void play(Frame frame) {
        tick();
        while (!done && !frame.isFull()) {
            int start = frame.position();
            int n = (int) Math.min(Math.min(frame.free(), left), chunk.size());
            int at = start + n <= chunk.size() ? start : 0;
            chunk.clear();
            chunk.advance(at);
            chunk.limit(at + n);
            if (source.isReady()) source.get(chunk);
            int got = chunk.position() - at;
            frame.copyFrom(chunk, at, at + got);
            left -= got;
            if (got < n || left == 0 || arriving.ended()) done = true;
        }
    }

    /**
     * Ends the transition (played out, cut short by another switch, or the station stopping);
     * idempotent.
     */
    void finish() {
        if (finished) return;
        finished = true;
        done = true;
        if (tick >= 0) afterTick();
        registrations.release();
        // Left mid-track: end that track, as a switch without transition does, so the input starts
        // afresh next time.
        if ((cut || leaving.pulled()) && from.remaining() != 0) from.abortTrack();
    }

    private void tick() {
        long t = clock.getTicks();
        if (t == tick) return;
        if (tick >= 0) afterTick();
        for (Source s : nodes) {
            try {
                s.beforeTick();
            } catch (RuntimeException e) {
                callbackFailed(s, e);
            }
        }
        tick = t;
    }

    private void afterTick() {
        for (Source s : nodes) {
            try {
                s.afterTick();
            } catch (RuntimeException e) {
                callbackFailed(s, e);
            }
        }
    }

    private void callbackFailed(Source s, RuntimeException e) {
        if (callbackReported) return;
        callbackReported = true;
        log.warn(
                "an onFrame callback of transition source {} failed: {} (logged once per transition)",
                s.id(),
                e.toString());
    }
}
