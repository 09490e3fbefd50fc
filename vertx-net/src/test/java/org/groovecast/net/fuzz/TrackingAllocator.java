package org.groovecast.net.fuzz;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Unpooled buffers, each one remembered, so that a fuzz target can tell how many bytes the code
 * under test holds at any moment and whether it freed everything in the end: deterministic, where
 * Netty's leak detector only notices a leak when the garbage collector happens to run. Direct by
 * default, as the epoll transport's buffers are.
 */
public final class TrackingAllocator extends AbstractByteBufAllocator {
    private final List<ByteBuf> allocated = new ArrayList<>();

    public TrackingAllocator() {
        super(true);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return track(new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity));
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return track(new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity));
    }

    private ByteBuf track(ByteBuf b) {
        allocated.add(b);
        return b;
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /** Bytes of capacity in buffers not yet released. */
    public long live() {
        long sum = 0;
        for (ByteBuf b : allocated) {
            if (b.refCnt() > 0) sum += b.capacity();
        }
        return sum;
    }

    /** Throws unless every buffer allocated here has been released. */
    public void assertAllReleased(String when) {
        for (ByteBuf b : allocated) {
            if (b.refCnt() != 0) {
                throw new AssertionError(
                        when
                                + ": a buffer of "
                                + b.capacity()
                                + " bytes (refCnt "
                                + b.refCnt()
                                + ") was never released");
            }
        }
    }
}
