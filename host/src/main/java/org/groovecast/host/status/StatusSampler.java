package org.groovecast.host.status;

import java.util.concurrent.TimeUnit;
import org.groovecast.host.sched.TaskScheduler;

/**
 * Samples a station's clocks once a second on its scheduler, for the status page's plots, until it
 * stops.
 */
public final class StatusSampler implements Runnable {
    private final StationStatus status;
    private final TaskScheduler scheduler;

    private StatusSampler(StationStatus status, TaskScheduler scheduler) {
        this.status = status;
        this.scheduler = scheduler;
    }

    public static void start(StationStatus status, TaskScheduler scheduler) {
        status.sample(); // a first point at once: a page opened now has something to draw
        scheduler.schedule(1, TimeUnit.SECONDS, new StatusSampler(status, scheduler));
    }

    @Override
    public void run() {
        if (status.isReleased() || scheduler.isShutdown()) return;
        status.sample();
        try {
            scheduler.schedule(1, TimeUnit.SECONDS, this);
        } catch (IllegalStateException stopping) {
            // the station is stopping
        }
    }
}
