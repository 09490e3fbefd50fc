package org.groovecast.net.runtime;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On a listening channel: when {@code accept} fails (EMFILE, the process out of file descriptors),
 * stops accepting for a moment instead of failing again in a loop, and logs once per episode: the
 * first failure with what to do about it, and how many there were once a connection is accepted
 * again. Failures soon after accepts resumed are the same episode (the queued connections of a
 * flood are accepted while the descriptors of the last ones are not yet closed): logged at debug,
 * not warned again.
 */
@ChannelHandler.Sharable
final class AcceptErrors extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(AcceptErrors.class);
    private static final long PAUSE_MS = 200;
    private static final long RELAPSE_NS = TimeUnit.SECONDS.toNanos(10);

    private final String what;
    private final LongSupplier nanoTime;
    // on the listening channel's loop only
    private long failures;
    private long resumedAt;

    AcceptErrors(String what) {
        this(what, System::nanoTime);
    }

    AcceptErrors(String what, LongSupplier nanoTime) {
        this.what = what;
        this.nanoTime = nanoTime;
        this.resumedAt = nanoTime.getAsLong() - RELAPSE_NS - 1;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object child) {
        if (failures > 0) {
            log.info("{}: accepting connections again after {} failed accepts", what, failures);
            failures = 0;
            resumedAt = nanoTime.getAsLong();
        }
        ctx.fireChannelRead(child);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable e) {
        if (failures++ == 0 && nanoTime.getAsLong() - resumedAt <= RELAPSE_NS) {
            log.debug("{}: cannot accept connections again: {}", what, e.getMessage());
        } else if (failures == 1) {
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
