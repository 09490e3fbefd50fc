package org.groovecast.ffmpeg.shared;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a thread talking to a remote peer (a stream's server, an HLS origin) waits before trying
 * again: a first delay doubling to a maximum, each wait drawn within ±25 % so that stations using
 * one server do not all come back at the same instant; back to the first delay once the peer
 * answers again. Also tells one episode of failures from the next, so that an outage is logged once
 * and its end once.
 */
public final class Backoff {
    private final double first;
    private final double max;
    private double next;
    private long episodeStart;

    /**
     * @param max the longest wait in seconds; the first is 1 s
     */
    public Backoff(double max) {
        this(1, max);
    }

    /**
     * @param first the first wait in seconds, @param max the longest
     */
    public Backoff(double first, double max) {
        this.first = first;
        this.max = max;
        this.next = first;
    }

    /** Whether a failure episode is going on (failed, not recovered since). */
    boolean failing() {
        return episodeStart != 0;
    }

    /** The next wait in seconds, jittered. */
    public double nextDelay() {
        double d = next * (0.75 + 0.5 * ThreadLocalRandom.current().nextDouble());
        next = Math.min(max, next * 2);
        return d;
    }

    /**
     * A failure: whether it is news (the first of an episode), to log at warning level; the others
     * go to debug.
     */
    public boolean failed() {
        if (episodeStart != 0) return false;
        episodeStart = System.nanoTime();
        return true;
    }

    /**
     * The peer answers again (a connection holds): the backoff starts over. Returns the outage's
     * length in seconds, or -1 if there was none.
     */
    public double recovered() {
        next = first;
        if (episodeStart == 0) return -1;
        double s = (System.nanoTime() - episodeStart) / 1e9;
        episodeStart = 0;
        return s;
    }
}
