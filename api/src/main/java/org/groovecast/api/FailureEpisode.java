package org.groovecast.api;

import java.util.function.LongSupplier;

/**
 * When to log the failures of one piece of script code that the engine calls again and again (a
 * callback, a predicate, a handler): the first failure of each run of failures, so that code
 * failing at every frame fills no log, and again after it has succeeded in between. However it
 * flaps, one line per {@link #QUIET_NANOS} at most; a line logged after others were held back says
 * how many.
 *
 * <p>{@link #succeeded()} is what the hot path calls: one volatile read, no lock, no allocation.
 */
public final class FailureEpisode {
    /** The least time between two lines for the same code. */
    public static final long QUIET_NANOS = 5_000_000_000L;

    private final LongSupplier nanoTime;
    private volatile boolean failing;

    /** Whether the run of failures going on was logged. */
    private boolean runLogged;

    private boolean logged;
    private long loggedAt;
    private long unlogged;

    public FailureEpisode() {
        this(System::nanoTime);
    }

    /** With a clock of the test's own, in nanoseconds. */
    FailureEpisode(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * A call failed. Returns -1 when it goes unlogged, else how many failures went unlogged before
     * it (to say so in the line). A run that starts within {@link #QUIET_NANOS} of the last line is
     * logged once that time has passed, if it still goes on.
     */
    public synchronized long failed() {
        if (!failing) {
            failing = true;
            runLogged = false;
        }
        long now = nanoTime.getAsLong();
        if (!runLogged && (!logged || now - loggedAt >= QUIET_NANOS)) {
            long before = unlogged;
            runLogged = true;
            logged = true;
            loggedAt = now;
            unlogged = 0;
            return before;
        }
        unlogged++;
        return -1;
    }

    /** A call succeeded: the run of failures, if one was going on, is over. */
    public void succeeded() {
        if (failing) failing = false;
    }

    /** {@code ""}, or what a line says of the failures {@link #failed()} held back before it. */
    public static String heldBack(long unlogged) {
        return unlogged <= 0
                ? ""
                : " ("
                        + unlogged
                        + (unlogged == 1 ? " more failure" : " more failures")
                        + " since the last report)";
    }
}
