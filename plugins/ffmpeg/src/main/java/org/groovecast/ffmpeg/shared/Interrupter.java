package org.groovecast.ffmpeg.shared;

import java.util.concurrent.ConcurrentHashMap;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOInterruptCB;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;

/**
 * FFmpeg's interrupt callback for one network stream, so that no blocking call (connecting,
 * probing, a read, a write) outlasts its deadline or the station: FFmpeg polls it while it waits
 * and gives up with {@code AVERROR_EXIT} once it answers 1. One static native callback serves every
 * stream (JavaCPP makes few per class) and finds its stream by the opaque cell's address, as {@link
 * ChannelIo} does.
 */
public final class Interrupter implements AutoCloseable {
    private static final ConcurrentHashMap<Long, Interrupter> OPEN = new ConcurrentHashMap<>();
    private static final Callback CALLBACK = new Callback();

    private final LongPointer opaque = new LongPointer(1);
    private volatile long deadline = Long.MAX_VALUE;
    private volatile boolean stopped;
    private volatile boolean expired;

    public Interrupter() {
        OPEN.put(opaque.address(), this);
    }

    /** Makes {@code context}'s blocking calls ask this one whether to give up. */
    public void attach(AVFormatContext context) {
        AVIOInterruptCB cb = context.interrupt_callback();
        cb.callback(CALLBACK);
        cb.opaque(opaque);
    }

    /** The blocking call about to be made may last {@code seconds} at most. */
    public void within(double seconds) {
        deadline = System.nanoTime() + (long) (seconds * 1e9);
    }

    /** Interrupts whatever blocks now and everything later: the stream is being closed. */
    public void stop() {
        stopped = true;
    }

    /**
     * Whether a deadline passed, not just {@link #stop()}: for good, since FFmpeg's I/O keeps the
     * error it got and fails later calls with it, whoever interrupted them.
     */
    public boolean expired() {
        return expired;
    }

    @Override
    public void close() {
        OPEN.remove(opaque.address());
        opaque.close();
    }

    private boolean interrupt() {
        if (stopped) return true;
        if (System.nanoTime() - deadline > 0) {
            expired = true;
            return true;
        }
        return false;
    }

    static final class Callback extends AVIOInterruptCB.Callback_Pointer {
        @Override
        public int call(Pointer opaque) {
            Interrupter i = opaque == null ? null : OPEN.get(opaque.address());
            return i != null && i.interrupt() ? 1 : 0;
        }
    }
}
