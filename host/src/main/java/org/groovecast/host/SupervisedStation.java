package org.groovecast.host;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One station of a process running many ({@link Stations}), kept on air by a thread of its own: a
 * script that fails to load is reported and tried again after a backoff (or at once when poked: its
 * file changed, a SIGHUP), a station that stops by itself is started again, and none of it touches
 * the other stations. Once on air, a poke is a reload, which keeps the listeners.
 */
final class SupervisedStation {
    private static final Logger log = LoggerFactory.getLogger(SupervisedStation.class);

    /** The first retry's wait; it doubles at each failure in a row, up to {@link #MAX_BACKOFF}. */
    static final Duration MIN_BACKOFF = Duration.ofSeconds(1);

    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

    private final String name;
    private final StationReloader reloader;
    private final Stations.Failures failures;
    private final CountDownLatch ended = new CountDownLatch(1);

    /** Guards {@link #stopping} and {@link #poked}; notified when either is set. */
    private final Object lock = new Object();

    private boolean stopping;
    private boolean poked;
    private volatile boolean onAir;
    private volatile int failed;

    SupervisedStation(String name, StationReloader reloader, Stations.Failures failures) {
        this.name = name;
        this.reloader = reloader;
        this.failures = failures;
    }

    void start() {
        Thread.ofPlatform().daemon().name("station-" + name).start(this::supervise);
    }

    private void supervise() {
        try {
            Duration backoff = MIN_BACKOFF;
            while (!isStopping()) {
                takePoke();
                Station s;
                try {
                    s = reloader.start();
                } catch (RuntimeException e) {
                    failed++;
                    failures.report(reloader.script(), e);
                    log.warn(
                            "station {} is not on air; trying again in {} s or when its file changes",
                            name,
                            backoff.toSeconds());
                    await(backoff);
                    backoff = next(backoff);
                    continue;
                }
                if (s == null) break; // stopped while it compiled
                onAir = true;
                backoff = MIN_BACKOFF;
                // Changed while it started: what is on air is the file's latest only once reloaded.
                if (takePoke()) reloader.reload();
                while (!reloader.awaitStopped(Duration.ofMillis(200))) {}
                onAir = false;
                if (isStopping()) break;
                log.warn(
                        "station {} stopped by itself; starting it again in {} s",
                        name,
                        backoff.toSeconds());
                await(backoff);
                backoff = next(backoff);
            }
        } catch (InterruptedException e) {
            reloader.requestStop();
        } finally {
            onAir = false;
            ended.countDown();
        }
    }

    private static Duration next(Duration backoff) {
        Duration d = backoff.multipliedBy(2);
        return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
    }

    /** Waits {@code d}, or less if poked or stopped meanwhile. */
    private void await(Duration d) throws InterruptedException {
        long deadline = System.nanoTime() + d.toNanos();
        synchronized (lock) {
            while (!stopping && !poked) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return;
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
        }
    }

    private boolean takePoke() {
        synchronized (lock) {
            boolean p = poked;
            poked = false;
            return p;
        }
    }

    private boolean isStopping() {
        synchronized (lock) {
            return stopping;
        }
    }

    /**
     * Its script changed, or a SIGHUP came: on air, a reload (the running station stays on air if
     * the new script fails); off air, a try now rather than after the backoff. Returns whether a
     * reload put a new station on air.
     */
    boolean poke() {
        if (onAir) return reloader.reload();
        synchronized (lock) {
            poked = true;
            lock.notifyAll();
        }
        return false;
    }

    /** Stops the station on air, and any start to come; see {@link StationReloader#requestStop}. */
    void requestStop() {
        synchronized (lock) {
            stopping = true;
            lock.notifyAll();
        }
        reloader.requestStop();
    }

    boolean awaitEnded(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    String name() {
        return name;
    }

    StationReloader reloader() {
        return reloader;
    }

    boolean onAir() {
        return onAir;
    }

    /** Loads that failed so far (each reported). */
    int failures() {
        return failed;
    }
}
