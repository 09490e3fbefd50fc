package org.groovecast.host.clock;

import org.groovecast.api.AudioFormat;
import org.groovecast.api.VideoFormat;

/**
 * What every clock of a station shares: the stream format and the health thresholds.
 *
 * @param frameSize       samples per channel per frame
 * @param maxLatencyNanos lag after which a clock drops its backlog instead of catching up
 * @param warnLagNanos    lag from which a clock warns
 * @param reportNanos     period of the health log line; 0 for none
 * @param video           layout of video images
 * @param scalingThreads  threads an image scaler may use; 0 for one per core
 */
public record ClockConfig(AudioFormat format, int frameSize, long maxLatencyNanos, long warnLagNanos, long reportNanos,
                          VideoFormat video, int scalingThreads) {
    /** Audio settings only; video at its defaults. */
    public ClockConfig(AudioFormat format, int frameSize, long maxLatencyNanos, long warnLagNanos, long reportNanos) {
        this(format, frameSize, maxLatencyNanos, warnLagNanos, reportNanos, VideoFormat.DEFAULT, 1);
    }

    /** Wall time of one frame: exact stream time, so that real-time clocks never drift. */
    public long frameNanos() {
        return frameSize * 1_000_000_000L / format.sampleRate();
    }

    public double frameSeconds() {
        return (double) frameSize / format.sampleRate();
    }
}
