package org.groovecast.api;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The pictures of a live input between its decoding thread and its clock, each at the absolute
 * sample position (in the input's {@link PcmRing}) where it starts to show. One writer, one reader,
 * no locks. The writer copies each picture into a slot of its own (the decoder reuses its pictures
 * at its next read); a slot is reused only once the reader moved past the tick that showed it. When
 * the reader is a whole ring behind, new pictures are dropped: the sound goes on, the last picture
 * stays on screen.
 */
final class LivePictures {
    private final VideoFormat format;
    private final Image[] slots;
    private final long[] positions;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong freed = new AtomicLong();
    // Reader only:
    private long taken;
    private long tick = -1;

    LivePictures(VideoFormat format, int capacity) {
        this.format = format;
        this.slots = new Image[capacity];
        this.positions = new long[capacity];
    }

    /**
     * Writer: {@code image} shows from absolute sample {@code position}; copied, or dropped when
     * full.
     */
    void offer(long position, Image image) {
        long w = written.get();
        if (w - freed.get() >= slots.length) return;
        int i = (int) (w % slots.length);
        if (slots[i] == null) slots[i] = new Image(format); // the pool fills once, then only copies
        slots[i].copyFrom(image);
        positions[i] = position;
        written.set(w + 1);
    }

    /**
     * Reader: attaches the pictures due before absolute sample {@code to} to {@code frame}, the
     * samples from {@code from} being at frame position {@code base}. At the first call of a new
     * clock tick, what earlier ticks showed is given back to the writer: a picture lives through
     * its tick, however many reads that tick makes.
     */
    void attach(Frame frame, int base, long from, long to, long clockTick) {
        if (clockTick != tick) {
            tick = clockTick;
            freed.set(taken);
        }
        long w = written.get();
        while (taken < w) {
            int i = (int) (taken % slots.length);
            long p = positions[i];
            if (p >= to) break;
            frame.addImage(base + (int) Math.max(0, p - from), slots[i]);
            taken++;
        }
    }
}
