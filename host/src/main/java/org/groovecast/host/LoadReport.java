package org.groovecast.host;

import java.util.concurrent.TimeUnit;
import org.groovecast.host.sched.BlockingPool;
import org.groovecast.host.sched.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the scheduler's load every {@code settings.clock.reportEvery}, beside the clocks' own lines;
 * it reschedules itself on the scheduler it reports on, until that shuts down.
 */
final class LoadReport implements Runnable {
    /**
     * The station's logger: these are its lines, and log configurations select them by its name.
     */
    private static final Logger log = LoggerFactory.getLogger(Station.class);

    private final TaskScheduler scheduler;
    private final BlockingPool blocking;
    private final long every;
    private long lastBusy;
    private long lastAt = System.nanoTime();

    private LoadReport(TaskScheduler scheduler, BlockingPool blocking, long every) {
        this.scheduler = scheduler;
        this.blocking = blocking;
        this.every = every;
    }

    /** Reports every {@code everyNanos} from now on; nothing when it is 0. */
    static void start(TaskScheduler scheduler, BlockingPool blocking, long everyNanos) {
        if (everyNanos > 0)
            scheduler.schedule(
                    everyNanos,
                    TimeUnit.NANOSECONDS,
                    new LoadReport(scheduler, blocking, everyNanos));
    }

    @Override
    public void run() {
        long now = System.nanoTime();
        long busy = scheduler.busyNanos();
        if (log.isInfoEnabled()) {
            log.info(
                    "scheduler: {}% busy on {} thread(s); blocking pool: {} running, {} queued",
                    String.format(
                            "%.1f",
                            100.0
                                    * (busy - lastBusy)
                                    / ((now - lastAt) * (double) scheduler.threads())),
                    scheduler.threads(),
                    blocking.inFlight(),
                    blocking.queued());
        }
        lastBusy = busy;
        lastAt = now;
        if (!scheduler.isShutdown()) {
            try {
                scheduler.schedule(every, TimeUnit.NANOSECONDS, this);
            } catch (IllegalStateException stopping) {
                // the station is stopping
            }
        }
    }
}
