package org.groovecast.host.clock;

import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.host.sched.TaskScheduler;

/**
 * A clock that is a task, not a thread: it ticks on whichever scheduler thread is free, and while
 * ahead of real time it is only a timer entry. An unsynced clock ticks in slices of a few
 * milliseconds and then requeues itself, so it cannot hog a scheduler thread.
 */
public final class TaskClock extends Clock implements Runnable {
    private static final int PARKED = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final long SLICE_NANOS = 2_000_000;

    private final TaskScheduler scheduler;
    private final AtomicInteger state = new AtomicInteger(PARKED);
    private volatile boolean stopRequested;
    private final TaskScheduler.Timer timer;

    public TaskClock(String id, Sync sync, ClockConfig config, TaskScheduler scheduler) {
        super(id, sync, config);
        this.scheduler = scheduler;
        this.timer = scheduler.timer(this);
    }

    @Override
    protected void begin() {
        scheduler.execute(this);
    }

    @Override
    public void run() {
        if (!state.compareAndSet(PARKED, RUNNING)) return;
        long next;
        try {
            next = ticks();
        } catch (Throwable t) {
            // Only what a tick lets through, the JVM out of memory: the clock ends here rather than
            // stay running for ever, which a stop would wait for.
            state.set(DONE);
            finished(true);
            throw t;
        }
        if (next < 0 || stopRequested) {
            state.set(DONE);
            finished(!stopRequested);
            return;
        }
        state.set(PARKED);
        if (next <= System.nanoTime()) {
            scheduler.execute(this);
        } else {
            scheduler.arm(timer, next);
        }
    }

    /** One tick, or an unsynced clock's slice of them; the next deadline, or -1 to end. */
    private long ticks() {
        if (sync != Sync.NONE) return stopRequested ? -1 : tick();
        long next;
        long until = System.nanoTime() + SLICE_NANOS;
        do {
            next = tick();
        } while (next >= 0 && !stopRequested && System.nanoTime() < until);
        return next;
    }

    @Override
    protected void requestStop() {
        stopRequested = true;
        if (state.compareAndSet(PARKED, DONE)) {
            timer.cancel();
            finished(false);
        }
    }
}
