package org.groovecast.host;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.sched.BlockingPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What sources need done before sound starts (first tracks decoded), run in parallel on the
 * blocking pool while the station prepares; a source slower than {@link #WAIT_SECONDS} does not
 * hold the others back: the station starts anyway and that source catches up.
 */
final class StartupWork {
    /**
     * The station's logger: these are its lines, and log configurations select them by its name.
     */
    private static final Logger log = LoggerFactory.getLogger(Station.class);

    private static final long WAIT_SECONDS = 10;

    private StartupWork() {}

    static void run(String station, List<Clock> clocks, BlockingPool blocking) {
        List<CompletableFuture<Void>> work = new ArrayList<>();
        for (Clock c : clocks) {
            for (Runnable r : c.startupWork()) work.add(CompletableFuture.runAsync(r, blocking));
        }
        if (work.isEmpty()) return;
        try {
            CompletableFuture.allOf(work.toArray(CompletableFuture[]::new))
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            log.warn(
                    "station {}: sources still preparing after {} s; starting anyway",
                    station,
                    WAIT_SECONDS);
        } catch (ExecutionException e) {
            log.warn(
                    "station {}: a source failed to prepare: {}", station, e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
