package org.groovecast.net.rtmp;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Notices an RTMP server that stopped reading what this end publishes, by two signs, looked at
 * every quarter of the timeout:
 *
 * <ul>
 *   <li>Acknowledgements. The publisher asks for one every {@link #WINDOW} bytes (Window
 *       Acknowledgement Size); a server that has sent one does so as its process reads. None for
 *       the timeout while more than twice the window went out since the last: the server is not
 *       reading, though the sockets' buffers (megabytes on a fast link) may still be taking bytes.
 *   <li>Writes. For a server that never acknowledges: an empty write goes behind whatever is
 *       queued, and completes once everything before it reached the kernel; one still out after the
 *       timeout means the socket's buffer stayed full that long.
 * </ul>
 *
 * Either calls {@code onStall} with the reason, once. A server that reads slowly but reads passes;
 * the writer dropping what it cannot send meanwhile keeps what waits bounded.
 *
 * <p>On the channel's loop: costs one promise per look and a counter per message written.
 */
final class StallWatch implements Runnable {
    /** The acknowledgement window asked of the server, in bytes. */
    static final int WINDOW = 64 << 10;

    private final ChannelHandlerContext ctx;
    private final long timeoutNanos;
    private final Consumer<String> onStall;
    private final ChannelFutureListener arrived = f -> probing = false;
    private ScheduledFuture<?> task;
    private boolean probing;
    private long probeSent;
    private boolean acknowledging;
    private long lastAck;
    private long sinceAck;

    StallWatch(ChannelHandlerContext ctx, long timeoutMillis, Consumer<String> onStall) {
        this.ctx = ctx;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.onStall = onStall;
    }

    /** From now on; on the channel's loop. */
    void start() {
        long period = Math.max(1, timeoutNanos / 4);
        task = ctx.executor().scheduleAtFixedRate(this, period, period, TimeUnit.NANOSECONDS);
    }

    void stop() {
        if (task != null) task.cancel(false);
    }

    /** {@code bytes} more went to the channel. */
    void wrote(int bytes) {
        sinceAck += bytes;
    }

    /** The server acknowledged what it read. */
    void acknowledged() {
        acknowledging = true;
        lastAck = ctx.executor().ticker().nanoTime();
        sinceAck = 0;
    }

    @Override
    public void run() {
        if (!ctx.channel().isActive()) {
            stop();
            return;
        }
        long now = ctx.executor().ticker().nanoTime();
        if (acknowledging && sinceAck > 2L * WINDOW && now - lastAck >= timeoutNanos) {
            stall("no acknowledgement of the " + sinceAck + " bytes sent for " + seconds());
        } else if (!probing) {
            probing = true;
            probeSent = now;
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(arrived);
        } else if (now - probeSent >= timeoutNanos) {
            stall("nothing written got through for " + seconds());
        }
    }

    private String seconds() {
        return String.format("%.1f s", timeoutNanos / 1e9);
    }

    private void stall(String why) {
        stop();
        onStall.accept("the server stopped reading: " + why);
    }
}
