package org.groovecast.ffmpeg.remote;

import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_ref;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;

import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.groovecast.ffmpeg.shared.Av;

/**
 * Encoded packets between a clock (the producer, which must never wait) and the thread that writes
 * them to the network. Bounded by time: past {@code maxSeconds} of stream queued, or when every
 * slot is taken, the oldest packets are dropped (the producer says how many). The slots and their
 * packets are made once and reused: queuing a packet references its data.
 */
final class PacketQueue implements AutoCloseable {
    /** One queued packet: a reference to the encoder's, its stream, and its time in seconds. */
    static final class Slot {
        final AVPacket packet = av_packet_alloc();
        int stream;
        double time;
    }

    private final ArrayBlockingQueue<Slot> ready;
    private final ArrayBlockingQueue<Slot> free;
    private final double maxSeconds;

    PacketQueue(int capacity, double maxSeconds) {
        this.ready = new ArrayBlockingQueue<>(capacity);
        this.free = new ArrayBlockingQueue<>(capacity);
        this.maxSeconds = maxSeconds;
        for (int i = 0; i < capacity; i++) free.add(new Slot());
    }

    /**
     * Producer: queues a reference to {@code packet}; returns how many old packets were dropped to
     * make room.
     */
    int offer(AVPacket packet, int stream, double time) throws IOException {
        int dropped = 0;
        Slot oldest;
        while ((oldest = ready.peek()) != null && time - oldest.time > maxSeconds && drop())
            dropped++;
        Slot s = free.poll();
        while (s == null) {
            if (drop()) dropped++;
            s = free.poll();
        }
        // A reference, not av_packet_move_ref: LAME's packets are not refcounted and point into its
        // pendingView, reused for the next frame; av_packet_ref copies such data (FFmpeg's own
        // refcounted packets are only referenced), and the encoder keeps its packet to reuse.
        Av.check(av_packet_ref(s.packet, packet), "cannot reference a packet");
        s.stream = stream;
        s.time = time;
        ready.add(s);
        return dropped;
    }

    /**
     * Producer with time to spare (an offline render): queues a reference to {@code packet},
     * waiting up to {@code seconds} for room; false if none came (the writer is not writing).
     */
    boolean put(AVPacket packet, int stream, double time, double seconds)
            throws IOException, InterruptedException {
        Slot s = free.poll((long) (seconds * 1000), TimeUnit.MILLISECONDS);
        if (s == null) return false;
        Av.check(
                av_packet_ref(s.packet, packet),
                "cannot reference a packet"); // not a move: see offer()
        s.stream = stream;
        s.time = time;
        ready.add(s);
        return true;
    }

    private boolean drop() {
        Slot s = ready.poll();
        if (s == null) return false; // the writer took it meanwhile
        recycle(s);
        return true;
    }

    /** Packets queued now. */
    int size() {
        return ready.size();
    }

    /**
     * Consumer: the oldest packet, waiting up to {@code millis}; null if none came. Give it back
     * with {@link #recycle}.
     */
    Slot take(long millis) throws InterruptedException {
        return ready.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** Consumer: what is queued now, for a connection that is not up. */
    void clear() {
        while (drop()) {
            // dropped
        }
    }

    void recycle(Slot s) {
        av_packet_unref(s.packet);
        free.add(s);
    }

    /** Frees every packet; only once neither side uses the queue. */
    @Override
    public void close() {
        clear();
        Slot s;
        while ((s = free.poll()) != null) av_packet_free(s.packet);
    }
}
