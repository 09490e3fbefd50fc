package org.groovecast.host.clock;

import java.util.function.LongSupplier;

/**
 * A clock's tick lateness over the last minute or so, as a Prometheus summary's quantiles want it:
 * the histogram counts from the clock's start, and quantiles of that would hardly move after a day
 * on air. Two snapshots of the counts, the older one at least {@code window} old and the newer one
 * taken when the older reached that age, keep the quantiles over one to two windows; reading
 * allocates nothing and the clock never waits for it (it only reads the counts the clock writes).
 */
public final class LatenessWindow {
    private final LatenessHistogram histogram;
    private final long windowNanos;
    private final LongSupplier nanoTime;

    /**
     * Counts when the window begins, and the newer snapshot that becomes that once it is a window
     * old.
     */
    private long[] base;

    private long[] pending;
    private long pendingAt;

    public LatenessWindow(LatenessHistogram histogram, double windowSeconds) {
        this(histogram, windowSeconds, System::nanoTime);
    }

    LatenessWindow(LatenessHistogram histogram, double windowSeconds, LongSupplier nanoTime) {
        this.histogram = histogram;
        this.windowNanos = (long) (windowSeconds * 1e9);
        this.nanoTime = nanoTime;
        base = new long[histogram.buckets()];
        pending = new long[histogram.buckets()];
        histogram.copyTo(base);
        histogram.copyTo(pending);
        pendingAt = nanoTime.getAsLong();
    }

    /**
     * Fills {@code into} with the lateness in seconds under which each of {@code quantiles} (0..1)
     * of the window's ticks started, NaN for a window without ticks; the bucket's upper edge, 10 µs
     * wide.
     */
    public synchronized void quantiles(double[] quantiles, double[] into) {
        long now = nanoTime.getAsLong();
        if (now - pendingAt >= windowNanos) {
            long[] older = base;
            base = pending;
            pending = older;
            histogram.copyTo(pending);
            pendingAt = now;
        }
        int n = histogram.buckets();
        long count = 0;
        for (int i = 0; i < n; i++) count += histogram.bucket(i) - base[i];
        for (int q = 0; q < quantiles.length; q++) {
            into[q] = count <= 0 ? Double.NaN : quantile(quantiles[q], count, n);
        }
    }

    private double quantile(double q, long count, int n) {
        long target = Math.max(1, (long) Math.ceil(q * count));
        long seen = 0;
        for (int i = 0; i < n; i++) {
            seen += histogram.bucket(i) - base[i];
            if (seen >= target) return LatenessHistogram.upperEdgeSeconds(i);
        }
        return LatenessHistogram.upperEdgeSeconds(
                n - 1); // ticks recorded while counting: the last bucket
    }

    /** Ticks recorded since the clock started. */
    public long count() {
        return histogram.count();
    }

    /** Their lateness added up, in seconds. */
    public double sumSeconds() {
        return histogram.sumSeconds();
    }
}
