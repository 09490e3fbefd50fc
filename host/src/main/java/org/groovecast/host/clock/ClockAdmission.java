package org.groovecast.host.clock;

import java.util.List;

/**
 * Starts a station's clocks a few at a time. A clock's first frames cost more than the ones after
 * (its encoders' first packets, its decoders' first reads, buffers touched for the first time):
 * started all at once, the clocks of a large station saturate the cores together, every one falls
 * behind, and the catch-up costs more work still, which is how a station that would fit in steady
 * state fails in its start. So at most {@code joining} clocks are joining real time at once; each
 * that joins (see {@link Clock#start(long, Runnable, long, long, Runnable)}) lets the next one
 * start. Their deadlines stay on the grid the station spread them over, whenever they start.
 */
public final class ClockAdmission {
    private final List<Clock> clocks;
    private final int phases;
    private final long frameNanos;
    private final long gridNanos;
    private final long stopAfterTicks;
    private final long headStartNanos;
    private final Runnable onFinished;
    private int started;

    private ClockAdmission(
            List<Clock> clocks,
            int phases,
            long frameNanos,
            long stopAfterTicks,
            long headStartNanos,
            Runnable onFinished) {
        this.clocks = List.copyOf(clocks);
        this.phases = Math.max(1, phases);
        this.frameNanos = frameNanos;
        this.gridNanos = System.nanoTime();
        this.stopAfterTicks = stopAfterTicks;
        this.headStartNanos = headStartNanos;
        this.onFinished = onFinished;
    }

    /**
     * Starts the first {@code joining} of {@code clocks} now and the others as those join, clock
     * {@code i} on the {@code i % phases}th of {@code phases} deadlines per frame.
     */
    public static ClockAdmission start(
            List<Clock> clocks,
            int joining,
            int phases,
            long frameNanos,
            long stopAfterTicks,
            long headStartNanos,
            Runnable onFinished) {
        ClockAdmission a =
                new ClockAdmission(
                        clocks, phases, frameNanos, stopAfterTicks, headStartNanos, onFinished);
        for (int i = 0; i < Math.max(1, joining); i++) a.startNext();
        return a;
    }

    /** Clocks not started yet: waiting for earlier ones to join real time. */
    public synchronized int waiting() {
        return clocks.size() - started;
    }

    /** The {@link System#nanoTime()} on which the first phase's deadlines fall. */
    long gridNanos() {
        return gridNanos;
    }

    private void startNext() {
        Clock c;
        long grid;
        synchronized (this) {
            if (started >= clocks.size()) return;
            int i = started++;
            c = clocks.get(i);
            grid = gridNanos + (i % phases) * frameNanos / phases;
        }
        c.start(stopAfterTicks, onFinished, grid, headStartNanos, this::startNext);
    }
}
