package org.groovecast.net.rtmp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A playing connection's side of a stream. The publisher's loop only queues (a reference to the
 * shared message) and wakes this connection's loop once; the drain there writes chunk headers and
 * slices of the shared payloads, then flushes once. Bounded: a player that cannot keep up (queue
 * full, or its socket past the high-water mark) loses non-key frames until the next keyframe, and
 * is disconnected if it stays that slow; the publisher and the other players never wait for it.
 *
 * <p>A player outlives its publishers, as on nginx-rtmp (whose {@code idle_streams} is on by
 * default) and SRS: one that asks for a key nobody publishes waits for it, and when the publisher
 * leaves it gets StreamEOF and {@code NetStream.Play.UnpublishNotify} (ffmpeg ends there) and, if
 * it stays connected, the next publisher's stream after StreamBegin and {@code
 * NetStream.Play.PublishNotify}. An nginx-rtmp edge's {@code pull} needs this: its connection stays
 * and would otherwise never get the stream again. The publisher's loop queues the begin and end of
 * each session in order with the messages, so a quick reconnection never mixes the two sessions'
 * messages.
 */
final class RtmpPlayer implements RtmpSubscriber {
    private static final Logger log = LoggerFactory.getLogger(RtmpPlayer.class);

    private final PlayerRole role;
    private final ChannelHandlerContext ctx;
    private final int streamId;
    private final long slowNanos;
    private final Queue<RtmpMessage> queue;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Runnable drain = this::drain;

    /** Queued in order with the messages: a publisher's session begins, or ends. */
    private static final RtmpMessage BEGIN =
            new RtmpMessage(MessageType.NONE, 0, io.netty.buffer.Unpooled.EMPTY_BUFFER);

    private static final RtmpMessage END =
            new RtmpMessage(MessageType.NONE, 0, io.netty.buffer.Unpooled.EMPTY_BUFFER);

    /** This connection's loop only: no publisher since the last one left, a StreamBegin is owed. */
    private boolean waiting;

    private volatile boolean ended;
    private volatile boolean stopped;

    /** Publisher's loop only: the queue overflowed, non-key video waits for the next keyframe. */
    private boolean dropping;

    private boolean skipToKeyframe;
    private long slowSince;
    private long dropped;

    RtmpPlayer(PlayerRole role, ChannelHandlerContext ctx, int streamId, RtmpServer.Limits limits) {
        this.role = role;
        this.ctx = ctx;
        this.streamId = streamId;
        this.slowNanos = limits.slowTimeoutMillis() * 1_000_000L;
        this.queue = PlatformDependent.newFixedMpscQueue(limits.queueMessages());
    }

    int streamId() {
        return streamId;
    }

    @Override
    public void deliver(RtmpMessage m) {
        boolean video = m.type == RtmpMessage.VIDEO && !m.sequenceHeader;
        // After an overflow the pictures that follow depend on one that was lost: wait for a
        // keyframe.
        if (dropping && video && !m.keyframe) return;
        m.payload.retain();
        if (!queue.offer(m)) {
            m.payload.release();
            dropping = true;
        } else if (video && m.keyframe) {
            dropping = false;
        }
        wake();
    }

    @Override
    public void published() {
        // No wake-up: the notice only has to go before the session's first message, which wakes the
        // drain.
        if (queue.offer(BEGIN))
            dropping = false; // the new session starts with its headers and a keyframe
    }

    @Override
    public void unpublished() {
        if (!queue.offer(END))
            ended = true; // so far behind that the queue is full: what follows the end goes
        wake();
    }

    /**
     * Whether no publisher is on now: the player waits for one (set once, on this loop, before any
     * drain).
     */
    void waiting(boolean w) {
        waiting = w;
    }

    private void wake() {
        if (scheduled.compareAndSet(false, true)) ctx.executor().execute(drain);
    }

    /** On this connection's loop. */
    private void drain() {
        scheduled.set(false);
        boolean open = ctx.channel().isActive() && !stopped;
        boolean wrote = false;
        RtmpMessage m;
        while ((m = queue.poll()) != null) {
            if (m == BEGIN || m == END) {
                if (!open) continue;
                if (wrote) ctx.flush();
                wrote = false;
                if (m == END) role.streamEnded(this);
                else if (waiting) role.streamBegan(this);
                waiting = m == END;
                continue;
            }
            try {
                if (open && keep(m)) {
                    role.writeMedia(m, streamId);
                    wrote = true;
                } else {
                    dropped++;
                }
            } finally {
                m.payload.release();
            }
        }
        if (!open) return;
        if (wrote) ctx.flush();
        if (ended) {
            ended = false;
            role.streamEnded(this);
            waiting = true;
            discard(); // anything queued after the end was checked must not follow StreamEOF
            return;
        }
        checkSlow();
    }

    /**
     * Whether to send {@code m} now: not while skipping to a keyframe, not media while the socket
     * is full.
     */
    private boolean keep(RtmpMessage m) {
        if (m.type == RtmpMessage.DATA || m.sequenceHeader) return true;
        boolean writable = ctx.channel().isWritable();
        if (m.type == RtmpMessage.VIDEO) {
            if (m.keyframe && writable) skipToKeyframe = false;
            if (skipToKeyframe || !writable) {
                skipToKeyframe = true;
                return false;
            }
            return true;
        }
        return writable; // audio has no keyframes to wait for
    }

    private void checkSlow() {
        if (!skipToKeyframe && ctx.channel().isWritable()) {
            slowSince = 0;
            return;
        }
        long now = System.nanoTime();
        if (slowSince == 0) {
            slowSince = now;
            if (log.isInfoEnabled())
                log.info(
                        "rtmp {}: player is slow; dropping frames until it catches up",
                        role.peer());
        } else if (now - slowSince > slowNanos) {
            if (log.isWarnEnabled()) {
                log.warn(
                        "rtmp {}: player too slow for {} s ({} messages dropped); disconnecting it",
                        role.peer(),
                        slowNanos / 1_000_000_000L,
                        dropped);
            }
            ctx.close();
        }
    }

    /**
     * The connection stopped playing (deleteStream, another play, closed): nothing more is written.
     */
    void stop() {
        stopped = true;
        discard();
    }

    /** What is queued goes. */
    private void discard() {
        RtmpMessage m;
        while ((m = queue.poll()) != null) m.payload.release();
    }
}
