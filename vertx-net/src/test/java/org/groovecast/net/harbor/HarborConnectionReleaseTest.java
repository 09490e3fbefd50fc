package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a connection holds of a request goes back however its handler leaves the channel. */
class HarborConnectionReleaseTest {
    private final List<ByteBuf> made = new ArrayList<>();

    /** Records every buffer the connection takes from its channel's allocator. */
    private final AbstractByteBufAllocator recording =
            new AbstractByteBufAllocator(false) {
                @Override
                protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
                    ByteBuf b = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
                    made.add(b);
                    return b;
                }

                @Override
                protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
                    ByteBuf b = new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity);
                    made.add(b);
                    return b;
                }

                @Override
                public boolean isDirectBufferPooled() {
                    return false;
                }
            };

    @Test
    void aHalfReadRequestsBytesGoBackWhenTheHandlerIsRemovedWithoutHearingTheEnd()
            throws Exception {
        HarborServer server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        server.commit();
        HarborConnection c = new HarborConnection(server);
        EmbeddedChannel ch = new EmbeddedChannel(false, false);
        ch.config().setAllocator(recording);
        ch.pipeline().addLast(c);
        ch.register();
        ch.writeInbound(Unpooled.copiedBuffer("GET /radio HT", StandardCharsets.ISO_8859_1));
        assertFalse(made.isEmpty(), "the head's first bytes are held for the rest");

        ch.pipeline().remove(c);

        for (ByteBuf b : made) assertEquals(0, b.refCnt(), "a held request buffer released");
        ch.finishAndReleaseAll();
    }
}
