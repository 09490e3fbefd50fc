package org.groovecast.net.rtmp;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection that holds its place without using it, once the handshake is done: one that
 * neither publishes nor plays for the timeout, and a publisher that sends no audio or video for as
 * long (like nginx-rtmp's {@code timeout} for a silent peer). A player is never idle: it waits for
 * its stream, which may be silent itself, and a player that cannot keep up has its own timeout.
 *
 * <p>Looks every quarter of the timeout, on the connection's loop, so a connection goes between one
 * and one and a quarter timeouts after it last did something; nothing is done per message but the
 * connection counting its media.
 */
final class IdleWatch implements Runnable {
    private static final int IDLE = 0;
    private static final int PUBLISHING = 1;
    private static final int PLAYING = 2;

    private final RtmpConnection connection;
    private final long timeoutNanos;
    private EventExecutor loop;
    private ScheduledFuture<?> task;
    private int state = IDLE;
    private long media;
    private long since;

    /**
     * @param timeoutMillis 0 for never
     */
    IdleWatch(RtmpConnection connection, long timeoutMillis) {
        this.connection = connection;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /** From now on; on the connection's loop. */
    void start(EventExecutor loop) {
        if (timeoutNanos <= 0) return;
        this.loop = loop;
        since = loop.ticker().nanoTime();
        long period = Math.max(1, timeoutNanos / 4);
        task = loop.scheduleAtFixedRate(this, period, period, TimeUnit.NANOSECONDS);
    }

    void stop() {
        if (task != null) task.cancel(false);
    }

    @Override
    public void run() {
        long now = loop.ticker().nanoTime();
        int s = connection.isPublishing() ? PUBLISHING : connection.isPlaying() ? PLAYING : IDLE;
        long m = connection.mediaReceived();
        if (s != state || m != media) {
            state = s;
            media = m;
            since = now;
        } else if (s != PLAYING && now - since >= timeoutNanos) {
            stop();
            String seconds = String.format("%.1f", timeoutNanos / 1e9);
            if (s == PUBLISHING) {
                connection.idle("published nothing for " + seconds + " s", true);
            } else {
                connection.idle("neither published nor played for " + seconds + " s", false);
            }
        }
    }
}
