package org.groovecast.ffmpeg;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a remote stream's thread waits before trying again: 1 s doubling to a maximum, each wait
 * drawn within ±25 % so that stations relaying one server do not all come back at the same
 * instant; back to 1 s once a connection holds. Also tells one episode of failures from the next,
 * so that an outage is logged once and its end once.
 */
final class Backoff {
    private static final double FIRST = 1;

    private final double max;
    private double next = FIRST;
    private long episodeStart;

    /** @param max the longest wait in seconds */
    Backoff(double max) {
        this.max = max;
    }

    /** The next wait in seconds, jittered. */
    double nextDelay() {
        double d = next * (0.75 + 0.5 * ThreadLocalRandom.current().nextDouble());
        next = Math.min(max, next * 2);
        return d;
    }

    /** A failure: whether it is news (the first of an episode), to log at warning level; the others go to debug. */
    boolean failed() {
        if (episodeStart != 0) return false;
        episodeStart = System.nanoTime();
        return true;
    }

    /** The connection holds: the backoff starts over. Returns the outage's length in seconds, or -1 if there was none. */
    double recovered() {
        next = FIRST;
        if (episodeStart == 0) return -1;
        double s = (System.nanoTime() - episodeStart) / 1e9;
        episodeStart = 0;
        return s;
    }
}
