package org.groovecast.api;

/** What a clock reports about its health; scripts read it as {@code c.duty}, {@code c.lag}. */
public interface ClockInfo {
    /**
     * The clock's name, as given to {@code clock.assignNew(id:)} or derived from its first output.
     */
    String getId();

    /**
     * Share of each frame period spent producing the frame, averaged over recent frames (0..1+).
     */
    double getDuty();

    /** Seconds the clock is behind real time right now (0 when on time or not synced). */
    double getLag();

    /**
     * Since when the clock has been behind real time, in seconds since the epoch; 0 while it keeps
     * time. A clock is behind from a frame at its warning lag ({@code settings.clock.warnLag}) or a
     * skip until it has kept within that for a few seconds.
     */
    default double getBehindSince() {
        return 0;
    }

    /**
     * Seconds of real time the clock dropped instead of catching up since it started ({@code
     * settings.clock.catchUp = 'skip'}, or past {@code settings.clock.maxLatency}).
     */
    default double getSkipped() {
        return 0;
    }

    /** Frames produced since start. */
    long getTicks();

    /** Stream time produced since start, in seconds. */
    double getTime();
}
