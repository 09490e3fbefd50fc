package org.groovecast.host;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.VideoFormat;
import org.groovecast.host.clock.ClockConfig;
import org.groovecast.host.clock.StartTime;
import org.groovecast.host.clock.StationZone;
import org.groovecast.host.script.ScriptError;

/**
 * A station's settings read into what its clocks share ({@link ClockConfig}). A value the clocks
 * cannot use is a script error of the station's file, found by {@link #check} when the script loads
 * ({@code groovecast check}), not when the clocks start.
 */
final class ClockSettings {
    private ClockSettings() {}

    /**
     * The settings the script left that only the clocks read, checked; throws what {@link #read}
     * would.
     */
    static void check(Settings settings, String fileName) {
        videoFormat(settings, fileName);
        startTime(settings, fileName);
    }

    /**
     * The clocks' configuration; {@code generation} is which reload of the first station this one
     * is.
     */
    static ClockConfig read(Settings settings, String fileName, int generation) {
        AudioFormat format =
                new AudioFormat(
                        settings.integer("audio.samplerate"), settings.integer("audio.channels"));
        int frameSize =
                (int)
                        Math.max(
                                1,
                                Math.round(
                                        settings.number("frame.duration") * format.sampleRate()));
        return new ClockConfig(
                format,
                frameSize,
                seconds(settings, "clock.maxLatency"),
                seconds(settings, "clock.warnLag"),
                seconds(settings, "clock.reportEvery"),
                videoFormat(settings, fileName),
                settings::get,
                startTime(settings, fileName),
                zone(settings, fileName),
                seed(settings, generation),
                settings.string("clock.catchUp").equals("skip")
                        ? seconds(settings, "clock.skipLag")
                        : 0);
    }

    /** A setting in seconds, as nanoseconds. */
    static long seconds(Settings settings, String key) {
        return (long) (settings.number(key) * 1e9);
    }

    /**
     * {@code settings.random.seed}, moved along by each reload, so that a reloaded station does not
     * repeat the first choices of the one it replaced, while a whole run still repeats from the
     * seed.
     */
    private static long seed(Settings settings, int generation) {
        long seed = settings.integer("random.seed");
        if (seed == 0) return 0;
        long moved = seed + generation * 0x9E3779B97F4A7C15L;
        return moved == 0 ? 1 : moved;
    }

    private static ZoneId zone(Settings settings, String fileName) {
        try {
            return StationZone.parse(settings.string("time.zone"));
        } catch (IllegalArgumentException e) {
            throw new ScriptError(fileName, 0, e.getMessage());
        }
    }

    private static ZonedDateTime startTime(Settings settings, String fileName) {
        try {
            return StartTime.parse(settings.string("clock.startTime"), zone(settings, fileName));
        } catch (IllegalArgumentException e) {
            throw new ScriptError(fileName, 0, e.getMessage());
        }
    }

    private static VideoFormat videoFormat(Settings settings, String fileName) {
        try {
            return new VideoFormat(
                    settings.integer("video.frame.width"),
                    settings.integer("video.frame.height"),
                    settings.integer("video.frame.rate"));
        } catch (IllegalArgumentException e) {
            throw new ScriptError(fileName, 0, "settings.video.frame: " + e.getMessage());
        }
    }
}
