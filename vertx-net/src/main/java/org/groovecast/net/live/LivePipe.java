package org.groovecast.net.live;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bytes of one live connection, from its event loop to the decoding thread, which reads them as
 * a blocking {@link InputStream} (direct style). Bounded: past {@code high} bytes queued the socket
 * is paused (TCP pushes back on the client) and resumed once the reader caught up. A reader waiting
 * longer than the timeout for data sees the end of the stream.
 */
public final class LivePipe extends InputStream {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition readable = lock.newCondition();
    private final ArrayDeque<ByteBuf> chunks = new ArrayDeque<>();
    private final int high;
    private final long timeoutNanos;
    private final Runnable pause;
    private final Runnable resume;
    private int queued;
    private boolean paused;
    private boolean closed;
    private boolean timedOut;

    public LivePipe(int high, long timeoutNanos, Runnable pause, Runnable resume) {
        this.high = high;
        this.timeoutNanos = timeoutNanos;
        this.pause = pause;
        this.resume = resume;
    }

    /** Adds bytes (event loop); takes ownership. */
    public void offer(ByteBuf data) {
        lock.lock();
        try {
            if (closed) {
                data.release();
                return;
            }
            chunks.addLast(data);
            queued += data.readableBytes();
            if (queued > high && !paused) {
                paused = true;
                pause.run();
            }
            readable.signal();
        } finally {
            lock.unlock();
        }
    }

    /** No more bytes will come; the reader drains what is queued, then sees the end. */
    public void finish() {
        lock.lock();
        try {
            closed = true;
            readable.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** True when the reader gave up waiting for data: the client stopped sending. */
    public boolean timedOut() {
        return timedOut;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) return 0;
        lock.lock();
        try {
            long wait = timeoutNanos;
            while (chunks.isEmpty()) {
                if (closed) return -1;
                if (wait <= 0) {
                    timedOut = true;
                    closed = true;
                    return -1;
                }
                wait = readable.awaitNanos(wait);
            }
            int n = 0;
            while (n < len && !chunks.isEmpty()) {
                ByteBuf c = chunks.peekFirst();
                int k = Math.min(len - n, c.readableBytes());
                c.readBytes(b, off + n, k);
                n += k;
                if (!c.isReadable()) chunks.pollFirst().release();
            }
            queued -= n;
            if (paused && queued < high / 2) {
                paused = false;
                resume.run();
            }
            return n;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            for (ByteBuf c : chunks) c.release();
            chunks.clear();
            queued = 0;
            readable.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public static long seconds(double s) {
        return TimeUnit.MILLISECONDS.toNanos((long) (s * 1000));
    }
}
