package org.groovecast.testkit;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.random.RandomGenerator;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;

/**
 * A {@link StreamContext} whose clock moves only when a test says so ({@link #tick()}), so that the
 * stream time, {@link #now()} and {@link #getTicks()} are exactly what the test made them.
 *
 * <p>It runs offline and repeatably: {@link #realtime()} is false, blocking work (the blocking
 * pool, {@link #beforeStart}) runs at once on the calling thread, {@link #random()} derives its
 * generators from a fixed seed, and time starts at {@link #DEFAULT_START} in UTC. Video keeps the
 * api's default layout ({@link VideoFormat#DEFAULT}) unless {@link #withVideo} chooses one; the kit
 * itself only looks at audio.
 *
 * <pre>{@code
 * TestContext ctx = TestContext.standard();          // 44.1 kHz stereo, 882-sample (20 ms) frames
 * TestContext mono = TestContext.of(new AudioFormat(48_000, 1), 960);
 * }</pre>
 */
public final class TestContext implements StreamContext, ClockInfo {
    /** Where the clock's time starts unless {@link #startingAt} moves it: 2026-01-01 00:00 UTC. */
    public static final ZonedDateTime DEFAULT_START =
            ZonedDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    private final AudioFormat format;
    private final int frameSize;
    private VideoFormat video = VideoFormat.DEFAULT;
    private ZonedDateTime start = DEFAULT_START;
    private SplittableRandom seeds = new SplittableRandom(0);
    private long ticks;

    private TestContext(AudioFormat format, int frameSize) {
        if (frameSize <= 0)
            throw new IllegalArgumentException("frame size must be positive, got " + frameSize);
        this.format = Objects.requireNonNull(format, "format");
        this.frameSize = frameSize;
    }

    /** A context of {@code format} with frames of {@code frameSize} samples per channel. */
    public static TestContext of(AudioFormat format, int frameSize) {
        return new TestContext(format, frameSize);
    }

    /** The engine's defaults: 44.1 kHz stereo in 20 ms frames (882 samples). */
    public static TestContext standard() {
        return of(AudioFormat.DEFAULT, 882);
    }

    /** Sets the picture layout sources read from {@link #video()}; returns this context. */
    public TestContext withVideo(VideoFormat video) {
        this.video = Objects.requireNonNull(video, "video");
        return this;
    }

    /**
     * Sets where the clock's time starts (and, by its zone, {@link #zone()}); returns this context.
     */
    public TestContext startingAt(ZonedDateTime start) {
        this.start = Objects.requireNonNull(start, "start");
        return this;
    }

    /** Seeds the generators {@link #random()} hands out (0 unless set); returns this context. */
    public TestContext seeded(long seed) {
        this.seeds = new SplittableRandom(seed);
        return this;
    }

    /** Ends the current frame: the clock moves on by one frame's worth of stream time. */
    public void tick() {
        ticks++;
    }

    // ---- StreamContext ----

    @Override
    public AudioFormat format() {
        return format;
    }

    @Override
    public int frameSize() {
        return frameSize;
    }

    @Override
    public VideoFormat video() {
        return video;
    }

    @Override
    public RandomGenerator random() {
        return seeds.split();
    }

    @Override
    public ClockInfo clock() {
        return this;
    }

    /** Runs the work at once on the calling thread: a test needs no pool, and wants it done. */
    @Override
    public Executor blocking() {
        return Runnable::run;
    }

    @Override
    public boolean realtime() {
        return false;
    }

    /**
     * Runs the work at once on the calling thread, so the source is ready before the first tick.
     */
    @Override
    public void beforeStart(Runnable blockingWork) {
        blockingWork.run();
    }

    /** The start time plus the stream time of the frames ticked so far. */
    @Override
    public ZonedDateTime now() {
        return start.plus(Duration.ofNanos(Math.round(getTime() * 1e9)));
    }

    @Override
    public ZoneId zone() {
        return start.getZone();
    }

    // ---- ClockInfo ----

    @Override
    public String getId() {
        return "test";
    }

    /** Always 0: a test clock spends no real time per frame that matters. */
    @Override
    public double getDuty() {
        return 0;
    }

    /** Always 0: a test clock is never behind. */
    @Override
    public double getLag() {
        return 0;
    }

    /** Frames ticked so far. */
    @Override
    public long getTicks() {
        return ticks;
    }

    /** Stream time of the frames ticked so far, in seconds. */
    @Override
    public double getTime() {
        return format.seconds(ticks * frameSize);
    }
}
