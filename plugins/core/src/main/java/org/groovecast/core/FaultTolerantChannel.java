package org.groovecast.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;

/**
 * A file channel whose writes do not fail: a write the file system refuses (a full disk, a quota)
 * is dropped whole, so that encoders keep their state and the clock keeps its pace, and the file
 * goes on where it stood once writes succeed again. Each write is all or nothing: what a refused
 * write had put down is cut off again, so the file never holds half a write (for a WAV, half a
 * sample frame). While writes fail, the file is tried again at most once per {@code retryNanos};
 * the calls in between cost nothing. Everything already written stays.
 */
final class FaultTolerantChannel implements SeekableByteChannel {
    /** Hears when writes start failing and when they succeed again. */
    interface Listener {
        void failed(IOException cause);

        void resumed(long lostBytes, long outageNanos);
    }

    private final FileChannel file;
    private final long retryNanos;
    private Listener listener;

    /** Where the file ends as far as this channel wrote it: an append is a write at or past it. */
    private long end;

    /** The file's position, kept here so that a write costs no extra system call. */
    private long position;

    private boolean failing;
    private long failedAt;
    private long nextTry;
    private long lost;

    FaultTolerantChannel(FileChannel file, long retryNanos, Listener listener) throws IOException {
        this.file = file;
        this.retryNanos = retryNanos;
        this.listener = listener;
        this.end = file.size();
        this.position = file.position();
    }

    boolean isFailing() {
        return failing;
    }

    /** Who hears about failures from now on (a reloaded output that took this file over). */
    void listener(Listener l) {
        listener = l;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int n = src.remaining();
        if (failing && System.nanoTime() < nextTry) {
            drop(src, n);
            return n;
        }
        long start = position;
        try {
            while (src.hasRemaining()) file.write(src);
        } catch (IOException e) {
            try {
                // Cut off what this write put down (an overwrite inside the file keeps the bytes it
                // replaced).
                file.truncate(Math.max(start, end));
                file.position(start);
            } catch (IOException again) {
                e.addSuppressed(again);
            }
            if (!failing) {
                failing = true;
                failedAt = System.nanoTime();
                listener.failed(e);
            }
            nextTry = System.nanoTime() + retryNanos;
            drop(src, n);
            return n;
        }
        position = start + n;
        end = Math.max(end, position);
        if (failing) {
            failing = false;
            listener.resumed(lost, System.nanoTime() - failedAt);
            lost = 0;
        }
        return n;
    }

    private void drop(ByteBuffer src, int n) {
        lost += n;
        src.position(src.limit());
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public SeekableByteChannel position(long p) throws IOException {
        file.position(p);
        position = p;
        return this;
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    @Override
    public SeekableByteChannel truncate(long size) throws IOException {
        file.truncate(size);
        end = Math.min(end, size);
        position = file.position();
        return this;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int r = file.read(dst);
        if (r > 0) position += r;
        return r;
    }

    @Override
    public boolean isOpen() {
        return file.isOpen();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
