package org.groovecast.host;

import java.util.function.LongSupplier;

/**
 * The share of some capacity that a growing total of busy nanoseconds used recently: the
 * scheduler's load as a gauge. A share since the start would barely move after a day on air, so the
 * total is remembered at two instants, the older one at least {@code window} old and the newer one
 * taken when the older reached that age: the share is over the last one to two windows.
 */
final class RecentShare {
    private final LongSupplier busyNanos;
    private final double capacity;
    private final long windowNanos;
    private final LongSupplier nanoTime;
    private long baseAt;
    private long baseBusy;
    private long pendingAt;
    private long pendingBusy;

    /**
     * @param capacity how many nanoseconds of work fit in one nanosecond (the threads)
     */
    RecentShare(LongSupplier busyNanos, double capacity, double windowSeconds) {
        this(busyNanos, capacity, windowSeconds, System::nanoTime);
    }

    RecentShare(
            LongSupplier busyNanos, double capacity, double windowSeconds, LongSupplier nanoTime) {
        this.busyNanos = busyNanos;
        this.capacity = capacity;
        this.windowNanos = (long) (windowSeconds * 1e9);
        this.nanoTime = nanoTime;
        baseAt = pendingAt = nanoTime.getAsLong();
        baseBusy = pendingBusy = busyNanos.getAsLong();
    }

    synchronized double read() {
        long now = nanoTime.getAsLong();
        long busy = busyNanos.getAsLong();
        if (now - pendingAt >= windowNanos) {
            baseAt = pendingAt;
            baseBusy = pendingBusy;
            pendingAt = now;
            pendingBusy = busy;
        }
        long elapsed = now - baseAt;
        return elapsed <= 0 ? 0 : (busy - baseBusy) / (elapsed * capacity);
    }
}
