package org.groovecast.host;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a running station's reloads came to: how many took, how many failed (the old script stayed
 * on air) and how long the last one took. Every reload makes a new station with new metrics, so
 * this lives in the reloader, for the life of the process, and each station's metrics read it.
 */
final class Reloads {
    private final AtomicLong succeeded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile double lastSeconds = Double.NaN;

    void recordSuccess(long nanos) {
        lastSeconds = nanos / 1e9;
        succeeded.incrementAndGet();
    }

    void recordFailure() {
        failed.incrementAndGet();
    }

    long successes() {
        return succeeded.get();
    }

    long failures() {
        return failed.get();
    }

    /**
     * Seconds from the reload's start (compiling the script) to the new station on air; NaN before
     * the first.
     */
    double lastSeconds() {
        return lastSeconds;
    }
}
