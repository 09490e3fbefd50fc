package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The last {@code burst} bytes of a mount's stream, as references to its shared chunks: what a new
 * listener gets at once. Holds one reference per chunk kept, let go when the chunk falls out or on
 * {@link #release}. Not thread-safe: each owner (a loop's shard, or the mount under its lock)
 * guards its own.
 */
final class RecentChunks {
    private final ArrayDeque<ByteBuf> chunks = new ArrayDeque<>();
    private final int burst;
    private int bytes;

    RecentChunks(int burst) {
        this.burst = burst;
    }

    /**
     * Keeps {@code chunk} (taking the reference given) and lets go of the oldest ones while the
     * rest still make the burst.
     */
    void keep(ByteBuf chunk) {
        chunks.addLast(chunk);
        bytes += chunk.readableBytes();
        while (!chunks.isEmpty() && bytes - chunks.peekFirst().readableBytes() >= burst) {
            bytes -= chunks.peekFirst().readableBytes();
            chunks.pollFirst().release();
        }
    }

    /** Each chunk kept, oldest first; the caller retains what it keeps. */
    void forEach(Consumer<ByteBuf> action) {
        chunks.forEach(action);
    }

    void release() {
        while (!chunks.isEmpty()) chunks.pollFirst().release();
        bytes = 0;
    }
}
