package org.groovecast.host.clock;

import java.util.Arrays;

/**
 * How late a clock's ticks start against their deadline, in 10 µs buckets up to 50 ms. Recording
 * is a counter increment, so it can run on every tick. Readers on other threads see a figure that
 * may miss the ticks of the last moment, never an inconsistent one: the count is the buckets' sum.
 */
public final class LatenessHistogram {
    private static final long BUCKET_NANOS = 10_000;
    private final long[] buckets = new long[5_000];

    void record(long lateNanos) {
        int b = (int) Math.min(buckets.length - 1, Math.max(0, lateNanos) / BUCKET_NANOS);
        buckets[b]++;
    }

    public long count() {
        long n = 0;
        for (long b : buckets) n += b;
        return n;
    }

    /** The lateness in milliseconds under which {@code q} (0..1) of the ticks started. */
    public double quantileMillis(double q) {
        long count = count();
        if (count == 0) return 0;
        long target = (long) Math.ceil(q * count);
        long seen = 0;
        for (int i = 0; i < buckets.length; i++) {
            seen += buckets[i];
            if (seen >= target) return (i + 1) * BUCKET_NANOS / 1e6;
        }
        return buckets.length * BUCKET_NANOS / 1e6;
    }

    /** The largest lateness told apart: later ticks count as this late. */
    public double ceilingMillis() {
        return buckets.length * BUCKET_NANOS / 1e6;
    }

    /** Adds {@code other}'s counts into this one, for a figure across clocks. */
    public void addAll(LatenessHistogram other) {
        for (int i = 0; i < buckets.length; i++) buckets[i] += other.buckets[i];
    }

    public void reset() {
        Arrays.fill(buckets, 0);
    }
}
