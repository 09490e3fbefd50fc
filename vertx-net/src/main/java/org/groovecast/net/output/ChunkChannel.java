package org.groovecast.net.output;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * An encoder's channel for network outputs: collects one frame's encoded bytes into a pooled direct
 * buffer (copied buffer to buffer), which {@link #take()} hands to the sockets' side.
 */
public final class ChunkChannel implements WritableByteChannel {
    private ByteBuf current;

    @Override
    public int write(ByteBuffer src) {
        int n = src.remaining();
        if (current == null)
            current = PooledByteBufAllocator.DEFAULT.directBuffer(Math.max(n, 4096));
        current.writeBytes(src);
        return n;
    }

    /** The bytes written since the last call, or null if none; the caller owns the buffer. */
    public ByteBuf take() {
        ByteBuf c = current;
        current = null;
        return c;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    /** Releases bytes never taken. */
    @Override
    public void close() {
        if (current != null) current.release();
        current = null;
    }
}
