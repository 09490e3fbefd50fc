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
 *
 * <p>At a station's start (paced), a clock that joined lets the next one start only while the
 * clocks already running keep up: none of them {@link #LATE_FRAMES} frames behind or skipping in
 * the last {@link #QUIET_NANOS}. A cold JVM (its JIT compiling what the first clocks run) or a
 * machine near its limit makes the running clocks late; admitting more then would make every one of
 * them later still, and a station that fits in steady state would spend its start skipping or
 * catching up. Held so, a release waits at most {@link #HOLD_NANOS}, so that a station that cannot
 * keep up still starts every clock (and says how far behind it is) rather than waiting for ever.
 */
public final class ClockAdmission {
    /** A running clock this many frames behind counts as late. */
    static final int LATE_FRAMES = 5;

    /** A release waits until no running clock has been late for this long. */
    static final long QUIET_NANOS = 100_000_000L;

    /** The longest a release waits for the running clocks to keep up. */
    static final long HOLD_NANOS = 500_000_000L;

    private final List<Clock> clocks;
    private final int phases;
    private final long frameNanos;
    private final long gridNanos;
    private final long stopAfterTicks;
    private final long headStartNanos;
    private final Runnable onFinished;

    /** Whether a joined clock's release waits for the running ones to keep up. */
    private final boolean paced;

    private int started;

    /** Clocks that joined and whose release of the next one waits for the others to keep up. */
    private int held;

    /** Since when the oldest held release waits. */
    private long heldSince;

    /** Read on every admitted clock's tick: whether a release is held (none: nothing to do). */
    private volatile boolean holding;

    /** When a running clock was last late ({@link System#nanoTime()}; 0: never). */
    private volatile long lastLateNanos;

    private volatile boolean allStarted;

    private ClockAdmission(
            List<Clock> clocks,
            int phases,
            long frameNanos,
            long stopAfterTicks,
            long headStartNanos,
            boolean paced,
            Runnable onFinished) {
        this.clocks = List.copyOf(clocks);
        this.paced = paced;
        this.phases = Math.max(1, phases);
        this.frameNanos = frameNanos;
        this.gridNanos = System.nanoTime();
        this.stopAfterTicks = stopAfterTicks;
        this.headStartNanos = headStartNanos;
        this.onFinished = onFinished;
    }

    /**
     * Starts the first {@code joining} of {@code clocks} now and the others as those join, clock
     * {@code i} on the {@code i % phases}th of {@code phases} deadlines per frame; {@code paced}:
     * each release also waits for the running clocks to keep up (a station's start, not a reload's
     * successor, whose streams were on air and may not wait for one another).
     */
    public static ClockAdmission start(
            List<Clock> clocks,
            int joining,
            int phases,
            long frameNanos,
            long stopAfterTicks,
            long headStartNanos,
            boolean paced,
            Runnable onFinished) {
        ClockAdmission a =
                new ClockAdmission(
                        clocks,
                        phases,
                        frameNanos,
                        stopAfterTicks,
                        headStartNanos,
                        paced,
                        onFinished);
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

    /** Whether every clock has started: admitted clocks stop reporting their ticks then. */
    boolean finished() {
        return allStarted;
    }

    /**
     * From an admitted clock's tick, on its thread: whether it is late ({@link #LATE_FRAMES} frames
     * behind, or it skipped), and a held release let go if the clocks keep up again.
     */
    void ticked(boolean late, long now) {
        if (late) lastLateNanos = now;
        if (holding) release(now);
    }

    /** A clock joined real time: the next one starts once the running ones keep up. */
    private void joined() {
        long now = System.nanoTime();
        synchronized (this) {
            if (held++ == 0) heldSince = now;
            holding = true;
        }
        release(now);
    }

    /**
     * Starts the next clock for each held release, if no running clock was late within {@link
     * #QUIET_NANOS} or the oldest has waited {@link #HOLD_NANOS}.
     */
    private void release(long now) {
        while (true) {
            synchronized (this) {
                long late = lastLateNanos;
                boolean quiet = late == 0 || now - late >= QUIET_NANOS;
                if (held == 0 || !quiet && now - heldSince < HOLD_NANOS) return;
                held--;
                heldSince = now;
                holding = held > 0;
            }
            startNext();
        }
    }

    private void startNext() {
        Clock c;
        long grid;
        synchronized (this) {
            if (started >= clocks.size()) return;
            int i = started++;
            allStarted = started == clocks.size();
            c = clocks.get(i);
            grid = gridNanos + (i % phases) * frameNanos / phases;
        }
        if (paced) c.admittedBy(this);
        c.start(
                stopAfterTicks,
                onFinished,
                grid,
                headStartNanos,
                paced ? this::joined : this::startNext);
    }
}
