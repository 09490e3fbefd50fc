package org.groovecast.api;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * What a source learns when its clock prepares it: the stream format, the frame size, its clock,
 * and where blocking work goes.
 */
public interface StreamContext {
    AudioFormat format();

    /** The layout of video images on this clock ({@code settings.video.frame.*}). */
    default VideoFormat video() {
        return VideoFormat.DEFAULT;
    }

    /**
     * The value of the setting {@code name} ({@code "video.frame.rate"}, or one a plugin declared,
     * see {@link SettingsProvider}) on this station, as the script or the command line left it,
     * else its default. Null where the context knows no settings, which is the default: a plugin
     * reads its own settings with {@link SettingSpec#valueIn}, which falls back on the declared
     * default. Any thread.
     */
    default Object setting(String name) {
        return null;
    }

    /**
     * Called by {@link Source#prepare} when a second consumer prepares {@code source}: the cache
     * through which it then serves every consumer from one computation per tick, {@code fill} being
     * how it computes (its own {@code generate}, callbacks and inserted metadata). The host's
     * contexts share; this default serves one consumer per source and refuses a second, so a
     * context made outside the host (a plugin's test) need not implement it unless its graph shares
     * a source.
     */
    default TickCache share(Source source, Consumer<Frame> fill) {
        throw new UnsupportedOperationException(
                source.id()
                        + " has a second consumer, and this StreamContext "
                        + "serves one consumer per source: only the engine's contexts share a source");
    }

    /**
     * A random generator of the source's own, for its choices (which input, which track). The host
     * derives each from {@code settings.random.seed} when one is set, so that a run can be
     * repeated; call it once, at prepare time, and keep the generator.
     */
    default RandomGenerator random() {
        return new SplittableRandom();
    }

    /** Samples per channel in one frame. */
    int frameSize();

    ClockInfo clock();

    /**
     * The bounded worker pool for blocking work (file probing, decoding ahead, resolving requests).
     * Never block a clock; hand the work here and pick up its result on a later tick.
     */
    Executor blocking();

    /**
     * False when the clock runs as fast as it can (offline rendering): then a source may do
     * blocking work inline rather than fall silent while it waits for the blocking pool.
     */
    boolean realtime();

    /**
     * Blocking work to finish before the clock's first tick (opening the first track), run on the
     * blocking pool alongside every other source's, so that sources are ready when sound starts.
     */
    void beforeStart(Runnable blockingWork);

    /**
     * The station's time at the start of the frame being produced: on a real-time clock the
     * wall-clock time at which that frame is due, on an unsynced clock its start time plus the
     * stream time produced since; {@code settings.clock.startTime} sets where every clock's time
     * starts (for tests, offline rendering, rehearsing a schedule). Call it on the clock's thread.
     * The default reads the system clock.
     */
    default ZonedDateTime now() {
        return ZonedDateTime.now();
    }

    /**
     * The zone in which the station reads its time ({@code settings.time.zone}, the system's by
     * default): {@link #now()} is in it, and so should be any time a source reads from the system
     * clock itself (a file name's date). Any thread.
     */
    default ZoneId zone() {
        return ZoneId.systemDefault();
    }

    /**
     * How the failure of a callback reads in the log: where in the script it happened and what went
     * wrong, on one line and without a stack trace ({@code radio.groovy:12: assertion failed: no
     * title}). The host finds the line in {@code failure}'s stack trace, or where {@code callback}
     * was written; this default, for a context made outside the host, is {@code failure}'s own
     * text. Any thread; only called on error paths.
     */
    default String describeFailure(Object callback, Throwable failure) {
        return failure.toString();
    }

    /** Seconds to samples at this context's sample rate. */
    default long samples(double seconds) {
        return format().samples(seconds);
    }
}
