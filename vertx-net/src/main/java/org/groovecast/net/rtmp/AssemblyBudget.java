package org.groovecast.net.rtmp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes that messages still being received may hold, all connections of a server together: each
 * {@link ChunkDecoder} takes from it as a message's buffer grows and gives back when the message is
 * complete, aborted or its connection gone. A cap on the sum, so that many connections each within
 * their own limit still cannot take the process's memory. Thread-safe; touched once per buffer
 * growth, never per chunk.
 */
public final class AssemblyBudget {
    private final AtomicLong used = new AtomicLong();
    private volatile long limit;

    public AssemblyBudget(long limit) {
        limit(limit);
    }

    /** A reloaded script may change the cap; what is held stays held. */
    public void limit(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit " + limit);
        }
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }

    /** Bytes held now. */
    public long used() {
        return used.get();
    }

    /** Takes {@code n} bytes if that stays within the cap; false (nothing taken) if not. */
    boolean take(long n) {
        long cap = limit;
        for (; ; ) {
            long u = used.get();
            if (u + n > cap) {
                return false;
            }
            if (used.compareAndSet(u, u + n)) {
                return true;
            }
        }
    }

    void give(long n) {
        used.addAndGet(-n);
    }
}
