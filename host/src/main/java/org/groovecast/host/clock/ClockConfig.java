package org.groovecast.host.clock;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.function.Function;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.VideoFormat;

/**
 * What every clock of a station shares: the stream format and the health thresholds.
 *
 * @param frameSize samples per channel per frame
 * @param maxLatencyNanos lag after which a clock drops its backlog instead of catching up
 * @param warnLagNanos lag from which a clock warns
 * @param reportNanos period of the health log line; 0 for none
 * @param video layout of video images
 * @param settings the station's settings by name ({@link
 *     org.groovecast.api.StreamContext#setting}): plugins read theirs through it
 * @param startTime the station time at every clock's first frame ({@code
 *     settings.clock.startTime}), or null for the wall clock
 * @param zone the zone in which the station reads its time ({@code settings.time.zone})
 * @param seed where the sources' random generators start ({@code settings.random.seed}), or 0 for a
 *     new start each run
 * @param skipLagNanos lag after which a clock drops the time it lost instead of catching up ({@code
 *     settings.clock.catchUp = 'skip'}), or 0 to catch up (Liquidsoap's way) until {@code
 *     maxLatencyNanos}
 */
public record ClockConfig(
        AudioFormat format,
        int frameSize,
        long maxLatencyNanos,
        long warnLagNanos,
        long reportNanos,
        VideoFormat video,
        Function<String, Object> settings,
        ZonedDateTime startTime,
        ZoneId zone,
        long seed,
        long skipLagNanos) {
    /** Catching up, as Liquidsoap's clocks do. */
    public ClockConfig(
            AudioFormat format,
            int frameSize,
            long maxLatencyNanos,
            long warnLagNanos,
            long reportNanos,
            VideoFormat video,
            Function<String, Object> settings,
            ZonedDateTime startTime,
            ZoneId zone,
            long seed) {
        this(
                format,
                frameSize,
                maxLatencyNanos,
                warnLagNanos,
                reportNanos,
                video,
                settings,
                startTime,
                zone,
                seed,
                0);
    }

    /**
     * Audio settings only; video at its defaults, time from the wall clock in the system's zone.
     */
    public ClockConfig(
            AudioFormat format,
            int frameSize,
            long maxLatencyNanos,
            long warnLagNanos,
            long reportNanos) {
        this(
                format,
                frameSize,
                maxLatencyNanos,
                warnLagNanos,
                reportNanos,
                VideoFormat.DEFAULT,
                name -> null,
                null,
                ZoneId.systemDefault(),
                0,
                0);
    }

    /** The same, skipping ahead once {@code lagNanos} behind (0: catching up). */
    public ClockConfig withSkipLag(long lagNanos) {
        return new ClockConfig(
                format,
                frameSize,
                maxLatencyNanos,
                warnLagNanos,
                reportNanos,
                video,
                settings,
                startTime,
                zone,
                seed,
                lagNanos);
    }

    /**
     * The configuration of the station's {@code n}th clock: its own seed, so that two clocks'
     * sources do not make the same choices (a clock's id is no help there: generated ids differ run
     * to run).
     */
    public ClockConfig forClock(int n) {
        if (seed == 0 || n == 0) return this;
        return new ClockConfig(
                format,
                frameSize,
                maxLatencyNanos,
                warnLagNanos,
                reportNanos,
                video,
                settings,
                startTime,
                zone,
                seed * 1_000_003L + n,
                skipLagNanos);
    }

    /** Wall time of one frame: exact stream time, so that real-time clocks never drift. */
    public long frameNanos() {
        return frameSize * 1_000_000_000L / format.sampleRate();
    }

    public double frameSeconds() {
        return (double) frameSize / format.sampleRate();
    }

    /**
     * Exact stream time of {@code ticks} frames, in nanoseconds (no drift from a rounded frame
     * length).
     */
    public long streamNanos(long ticks) {
        long samples = ticks * frameSize;
        long rate = format.sampleRate();
        return samples / rate * 1_000_000_000L + samples % rate * 1_000_000_000L / rate;
    }
}
