package org.groovecast.api;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Decoded samples between one writer (a live input's decoding thread) and one reader (its clock),
 * without locks: each side owns its index and publishes it. When full, the writer's newest samples
 * are dropped, never the reader's.
 */
final class PcmRing {
    private final float[][] planes;
    private final int capacity;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong read = new AtomicLong();

    PcmRing(int channels, int capacity) {
        this.capacity = capacity;
        this.planes = new float[channels][capacity];
    }

    /** Writer: samples written since the start, the absolute position of the next one. */
    long writtenPosition() {
        return written.get();
    }

    /** Reader: samples read since the start, the absolute position of the next one. */
    long readPosition() {
        return read.get();
    }

    /** Samples ready for the reader. */
    int available() {
        return (int) (written.get() - read.get());
    }

    /** Writer: appends samples [from, to) of {@code src}; returns how many fit. */
    int write(Frame src, int from, int to) {
        long w = written.get();
        int n = (int) Math.min(to - from, capacity - (w - read.get()));
        int at = (int) (w % capacity);
        int first = Math.min(n, capacity - at);
        for (int c = 0; c < planes.length; c++) {
            System.arraycopy(src.channel(c), from, planes[c], at, first);
            System.arraycopy(src.channel(c), from + first, planes[c], 0, n - first);
        }
        written.set(w + n);
        return n;
    }

    /** Reader: moves up to {@code max} samples into {@code dst} at its position and advances it. */
    int read(Frame dst, int max) {
        long r = read.get();
        int n = (int) Math.min(max, written.get() - r);
        int at = (int) (r % capacity);
        int first = Math.min(n, capacity - at);
        int pos = dst.position();
        for (int c = 0; c < planes.length; c++) {
            System.arraycopy(planes[c], at, dst.channel(c), pos, first);
            System.arraycopy(planes[c], 0, dst.channel(c), pos + first, n - first);
        }
        dst.advance(n);
        read.set(r + n);
        return n;
    }
}
