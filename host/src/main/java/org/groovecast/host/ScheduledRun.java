package org.groovecast.host;

import org.groovecast.api.Registration;
import org.groovecast.api.UserFunction;
import org.groovecast.host.sched.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code thread.run} function: once after a delay or at a fixed rate; {@link #release()} cancels
 * it.
 */
final class ScheduledRun implements Registration {
    private static final Logger log = LoggerFactory.getLogger(ScheduledRun.class);

    private final Station station;
    private final long delayNanos;
    private final long everyNanos;
    private final boolean fast;
    private final UserFunction function;
    private volatile boolean cancelled;

    /** Whether the last run failed: the next failure is not logged again until one succeeds. */
    private boolean failing;

    private volatile TaskScheduler.Timer timer;
    private long due;

    ScheduledRun(Station station, double delay, double every, boolean fast, UserFunction function) {
        this.station = station;
        this.delayNanos = (long) (delay * 1e9);
        this.everyNanos = (long) (every * 1e9);
        this.fast = fast;
        this.function = function;
    }

    void schedule() {
        due = System.nanoTime() + delayNanos;
        arm();
    }

    private void arm() {
        if (cancelled || station.taskScheduler().isShutdown()) return;
        try {
            timer =
                    station.taskScheduler()
                            .scheduleAt(
                                    due,
                                    fast
                                            ? this::runNow
                                            : () -> station.blockingPool().execute(this::runNow));
        } catch (IllegalStateException stopping) {
            // the station is stopping: nothing more to run
        }
    }

    private void runNow() {
        if (cancelled) return;
        try {
            function.call();
            failing = false;
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) { // an assert, a stack overflow: the script's, not the scheduler's
            // Once per episode: a function run every second that keeps failing says so once.
            if (!failing) log.error("thread.run function failed: {}", station.scriptFailure(e));
            failing = true;
        }
        if (everyNanos > 0) {
            due += everyNanos;
            long now = System.nanoTime();
            if (due < now) due = now; // never queue a burst of missed runs
            arm();
        }
    }

    @Override
    public void release() {
        cancelled = true;
        TaskScheduler.Timer t = timer;
        if (t != null) t.cancel();
    }
}
