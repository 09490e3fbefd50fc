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

    /** Frames produced since start. */
    long getTicks();

    /** Stream time produced since start, in seconds. */
    double getTime();
}
