package org.groovecast.net.runtime;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On a listening channel: when {@code accept} fails (EMFILE, the process out of file descriptors),
 * stops accepting for a moment instead of failing again in a loop, and logs once per episode: the
 * first failure with what to do about it, and how many there were once a connection is accepted
 * again.
 */
@ChannelHandler.Sharable
final class AcceptErrors extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(AcceptErrors.class);
    private static final long PAUSE_MS = 200;

    private final String what;
    private long failures; // on the acceptor's loop only

    AcceptErrors(String what) {
        this.what = what;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object child) {
        if (failures > 0) {
            log.info("{}: accepting connections again after {} failed accepts", what, failures);
            failures = 0;
        }
        ctx.fireChannelRead(child);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable e) {
        if (failures++ == 0) {
            // Nothing here may need a file descriptor (the process has none left): no counting of
            // /proc/self/fd.
            log.warn(
                    "{}: cannot accept connections: {} (the process may open {} files); pausing accepts until some "
                            + "free (raise the limit: ulimit -n, LimitNOFILE=; or lower settings.harbor.maxConnections)",
                    what,
                    e.getMessage(),
                    ServerChannels.maxFileDescriptors());
        }
        // What Netty's own acceptor does, without its log line each time: stop reading the
        // listening socket for a while.
        var config = ctx.channel().config();
        if (config.isAutoRead()) {
            config.setAutoRead(false);
            ctx.channel()
                    .eventLoop()
                    .schedule(() -> config.setAutoRead(true), PAUSE_MS, TimeUnit.MILLISECONDS);
        }
    }
}
