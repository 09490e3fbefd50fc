package org.groovecast.host.clock;

import java.util.Arrays;

/**
 * How late a clock's ticks start against their deadline, in 10 µs buckets up to 50 ms. Recording is
 * a counter increment, so it can run on every tick. Readers on other threads see a figure that may
 * miss the ticks of the last moment, never an inconsistent one: the count is the buckets' sum.
 */
public final class LatenessHistogram {
    private static final long BUCKET_NANOS = 10_000;
    private final long[] buckets = new long[5_000];

    /** Every tick's lateness added up, unclamped: a summary's sum. */
    private long sumNanos;

    void record(long lateNanos) {
        long late = Math.max(0, lateNanos);
        int b = (int) Math.min(buckets.length - 1, late / BUCKET_NANOS);
        buckets[b]++;
        sumNanos += late;
    }

    /**
     * The lateness of every tick recorded, added up, in seconds (ticks later than the ceiling
     * counted as late as they were).
     */
    public double sumSeconds() {
        return sumNanos / 1e9;
    }

    /**
     * Copies the counts into {@code into} (as long as the histogram: {@link #buckets()}),
     * allocating nothing.
     */
    void copyTo(long[] into) {
        System.arraycopy(buckets, 0, into, 0, buckets.length);
    }

    /** How many buckets the histogram has. */
    int buckets() {
        return buckets.length;
    }

    /**
     * Ticks in bucket {@code i}, {@code i * 10 µs} to {@code (i + 1) * 10 µs} late (the last: that
     * late or more).
     */
    long bucket(int i) {
        return buckets[i];
    }

    /** The upper edge of bucket {@code i}, in seconds. */
    static double upperEdgeSeconds(int i) {
        return (i + 1) * BUCKET_NANOS / 1e9;
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
        sumNanos += other.sumNanos;
    }

    public void reset() {
        Arrays.fill(buckets, 0);
        sumNanos = 0;
    }
}
