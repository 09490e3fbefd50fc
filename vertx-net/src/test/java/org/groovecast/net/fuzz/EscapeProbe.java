package org.groovecast.net.fuzz;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Sits before the handler under test and hands it each read by a plain call, so that an exception
 * it throws lands here instead of in its own {@code exceptionCaught}, which would close the
 * connection quietly: a fuzz target then sees what escaped. Reads still arrive through the channel
 * ({@code writeInbound}), so the embedded event loop runs the tasks they queue after the read, as
 * an event loop does, and not in the middle of a write (which EmbeddedChannel does for writes made
 * outside its own calls).
 */
public final class EscapeProbe extends ChannelInboundHandlerAdapter {
    private final ChannelInboundHandler target;
    private Throwable escaped;

    public EscapeProbe(ChannelInboundHandler target) {
        this.target = target;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        try {
            target.channelRead(ctx.pipeline().context(target), msg);
        } catch (Throwable e) {
            if (escaped == null) escaped = e;
        }
    }

    /** Throws what escaped the handler, if anything did. */
    public void rethrow() {
        if (escaped instanceof RuntimeException e) throw e;
        if (escaped instanceof Error e) throw e;
        if (escaped != null) throw new AssertionError("escaped the handler", escaped);
    }
}
