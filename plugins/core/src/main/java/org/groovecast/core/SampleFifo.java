package org.groovecast.core;

/**
 * A first-in first-out queue of planar float samples of fixed capacity, counted in absolute
 * positions (samples ever written and read) so that marks kept beside it can say where they fall.
 * When a write does not fit, the oldest samples make room.
 */
final class SampleFifo {
    private final float[][] ring;
    private final int capacity;
    private long written;
    private long read;

    SampleFifo(int channels, int capacity) {
        this.capacity = capacity;
        this.ring = new float[channels][capacity];
    }

    int capacity() {
        return capacity;
    }

    long size() {
        return written - read;
    }

    /** Absolute position of the next sample to read. */
    long readPosition() {
        return read;
    }

    /** Absolute position of the next sample to write. */
    long writePosition() {
        return written;
    }

    /**
     * Appends {@code n} samples of each plane from {@code from}; returns how many old samples were
     * dropped for them.
     */
    long write(float[][] src, int from, int n) {
        long dropped = Math.max(0, size() + n - capacity);
        if (n > capacity) { // only the newest fit: the others count as written and dropped at once
            int skip = n - capacity;
            from += skip;
            written += skip;
            n = capacity;
        }
        read = Math.max(read, written + n - capacity);
        int at = (int) (written % capacity);
        int first = Math.min(n, capacity - at);
        for (int c = 0; c < ring.length; c++) {
            System.arraycopy(src[c], from, ring[c], at, first);
            System.arraycopy(src[c], from + first, ring[c], 0, n - first);
        }
        written += n;
        return dropped;
    }

    /**
     * Moves {@code n} samples (at most {@link #size()}) into each plane of {@code dst} from {@code
     * at}.
     */
    void read(float[][] dst, int at, int n) {
        int from = (int) (read % capacity);
        int first = Math.min(n, capacity - from);
        for (int c = 0; c < ring.length; c++) {
            System.arraycopy(ring[c], from, dst[c], at, first);
            System.arraycopy(ring[c], 0, dst[c], at + first, n - first);
        }
        read += n;
    }

    /** Drops everything queued. */
    void clear() {
        read = written;
    }
}
