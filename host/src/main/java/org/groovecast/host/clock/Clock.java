package org.groovecast.host.clock;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Frame;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.TickCache;
import org.groovecast.api.VideoFormat;
import org.groovecast.host.script.ScriptFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one connected graph: each tick asks every output for one frame, then waits for the next
 * frame to be due. Subclasses decide how to wait ({@link TaskClock} parks as a timer on the shared
 * scheduler, {@link ThreadClock} sleeps on a thread of its own); this class does the tick and
 * measures the clock's health: its duty cycle (share of each frame period spent working) and its
 * lag behind real time.
 */
public abstract class Clock implements ClockInfo {
    private static final Logger log = LoggerFactory.getLogger(Clock.class);
    private static final double DUTY_SMOOTHING = 0.02;

    /**
     * A clock counts as joined to real time after this many frames once a frame ends on time
     * (within {@link #JOIN_SLACK_FRAMES} frames): its first frames (first packets of its encoders,
     * first reads of its decoders) cost more than the ones after.
     */
    static final int JOIN_FRAMES = 3;

    static final int JOIN_SLACK_FRAMES = 2;

    /**
     * A clock that is never on time counts as joined after this long, so that the others still
     * start on a machine that other work keeps busy.
     */
    static final long JOIN_TIMEOUT_NANOS = 500_000_000L;

    /** A clock is no longer behind once it has been within its warning lag for this long. */
    static final long RECOVERED_NANOS = 5_000_000_000L;

    /** How long a stop waits for the tick in progress: a tick takes milliseconds. */
    public static final Duration STOP_WAIT = Duration.ofSeconds(5);

    /** See {@link #ticking()}: blocking script calls (http.get) refuse to run on a clock. */
    private static final ThreadLocal<Clock> TICKING = new ThreadLocal<>();

    protected final String id;
    protected final Sync sync;
    protected final ClockConfig config;
    private final long frameNanos;
    private final List<Output> outputs = new ArrayList<>();
    private final List<Runnable> startupWork = new ArrayList<>();
    private Source[] sources = new Source[0];
    private final LatenessHistogram lateness = new LatenessHistogram();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile Runnable onFinished = () -> {};
    private Runnable onJoined = () -> {};
    private boolean joined;

    /** The admission that started this clock, told of each tick until it has started them all. */
    private ClockAdmission admission;

    private long startNanos;

    private long origin;
    private long ticks;
    private long stopAfterTicks;
    private volatile double duty;
    private volatile double lag;
    private volatile long publishedTicks;
    private long lastWarn;
    private long lastCallbackError;
    private ZonedDateTime startWall;
    private long wallOffsetNanos;
    private long timeTick = -1;
    private ZonedDateTime time;
    private long reportStart;
    private long reportWork;
    private long reportTicks;
    private double reportMaxLag;
    private volatile long skippedNanos;
    private long skips;
    private long lastSkipLog;
    private volatile long behindSinceMillis;
    private long lastBehindNanos;

    protected Clock(String id, Sync sync, ClockConfig config) {
        this.id = id;
        this.sync = sync;
        this.config = config;
        this.frameNanos = config.frameNanos();
    }

    /** Prepares the outputs' graphs for this clock; call once, before {@link #start}. */
    public final void attach(Collection<Output> outs, Executor blocking) {
        SplittableRandom seeds = config.seed() == 0 ? null : new SplittableRandom(config.seed());
        Context ctx =
                new Context(
                        config.format(),
                        config.frameSize(),
                        config.video(),
                        config.settings(),
                        this,
                        blocking,
                        sync == Sync.AUTO,
                        startupWork,
                        seeds);
        for (Output o : outs) {
            o.prepare(ctx);
            outputs.add(o);
        }
        Map<Source, Boolean> seen = new IdentityHashMap<>();
        for (Output o : outs) collect(o, seen);
        sources = seen.keySet().toArray(new Source[0]);
    }

    private static void collect(Source s, Map<Source, Boolean> seen) {
        if (seen.put(s, Boolean.TRUE) != null) return;
        for (Source in : s.inputs()) collect(in, seen);
    }

    public final List<Output> outputs() {
        return outputs;
    }

    /**
     * What the sources asked to have done before the first tick (see {@link
     * StreamContext#beforeStart}).
     */
    public final List<Runnable> startupWork() {
        return startupWork;
    }

    /**
     * Starts ticking. {@code stopAfterTicks} > 0 ends the clock after that many frames (offline
     * rendering); {@code onFinished} runs when the clock ends by itself.
     */
    public final void start(long stopAfterTicks, Runnable onFinished) {
        start(stopAfterTicks, onFinished, 0);
    }

    /**
     * The same, with the frame deadlines shifted by {@code phaseNanos}: clocks started together
     * would otherwise all be due at the same instant and queue behind each other every frame.
     */
    public final void start(long stopAfterTicks, Runnable onFinished, long phaseNanos) {
        start(stopAfterTicks, onFinished, phaseNanos, 0);
    }

    /**
     * The same, running {@code headStartNanos} of stream at once before keeping time: a reloaded
     * station's encoders fill their look-ahead (an MP3 encoder holds about two frames back) while
     * listeners still play what the old station sent last.
     */
    public final void start(
            long stopAfterTicks, Runnable onFinished, long phaseNanos, long headStartNanos) {
        long now = System.nanoTime();
        run(
                stopAfterTicks,
                onFinished,
                now + Math.floorMod(phaseNanos, frameNanos) - Math.max(0, headStartNanos),
                now,
                () -> {});
    }

    /**
     * The same, with the frame deadlines on the grid of {@code gridNanos} (a {@link
     * System#nanoTime()} on which a deadline falls, one frame apart from there): clocks started one
     * after the other keep the few deadlines their station spread them over. {@code onJoined} runs
     * once, on the clock's thread, when the clock has joined real time: its first frames produced
     * and a frame on time, or {@link #JOIN_TIMEOUT_NANOS} after its start if it never is (see
     * {@link ClockAdmission}).
     */
    public final void start(
            long stopAfterTicks,
            Runnable onFinished,
            long gridNanos,
            long headStartNanos,
            Runnable onJoined) {
        long now = System.nanoTime();
        // The grid's first deadline from now on: a clock started at once (within the tolerance)
        // gets the deadline its phase gives it, as a clock started alone does.
        long tolerance = Math.min(1_000_000, frameNanos / 8);
        long first = gridNanos + Math.ceilDiv(now - tolerance - gridNanos, frameNanos) * frameNanos;
        run(stopAfterTicks, onFinished, first - Math.max(0, headStartNanos), now, onJoined);
    }

    private void run(
            long stopAfterTicks, Runnable onFinished, long origin, long now, Runnable onJoined) {
        this.stopAfterTicks = stopAfterTicks;
        this.onFinished = onFinished;
        this.onJoined = onJoined;
        this.origin = origin;
        startNanos = now;
        startWall =
                config.startTime() != null ? config.startTime() : ZonedDateTime.now(config.zone());
        wallOffsetNanos = epochNanos(Instant.now()) - System.nanoTime();
        reportStart = origin;
        begin();
    }

    /** Starts the driving task or thread. */
    protected abstract void begin();

    /** Asks the driver to stop; the tick in progress, if any, completes. */
    protected abstract void requestStop();

    /** Stops ticking and waits for the tick in progress to finish, {@link #STOP_WAIT} at most. */
    public final void stop() {
        beginStop();
        awaitStopped(System.nanoTime() + STOP_WAIT.toNanos());
    }

    /**
     * Asks the clock to stop without waiting: the tick in progress, if any, completes. Stopping
     * several clocks, ask them all first and then wait ({@link #awaitStopped}), so that their waits
     * overlap.
     */
    public final void beginStop() {
        requestStop();
    }

    /**
     * Waits until the clock ticks no more, until {@code deadline} ({@link System#nanoTime()}) at
     * most. False, logged, when a tick still runs then: a script callback that does not return
     * keeps its tick, and the station stops without it.
     */
    public final boolean awaitStopped(long deadline) {
        try {
            if (finished.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS))
                return true;
            log.warn(
                    "clock {}: a tick did not finish in time for the stop (a callback that does not"
                            + " return?); stopping without it",
                    id);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** Called by the driver when it will tick no more. */
    protected final void finished(boolean byItself) {
        if (finished.getCount() == 0) return;
        finished.countDown();
        if (byItself) onFinished.run();
    }

    public final boolean isFinished() {
        return finished.getCount() == 0;
    }

    /**
     * Runs one tick. Returns the {@link System#nanoTime()} at which the next is due (now, for a
     * clock that is behind or unsynced), or -1 when the clock has nothing more to do.
     */
    protected final long tick() {
        TICKING.set(this);
        try {
            return tickOnce();
        } finally {
            TICKING.set(null); // the entry stays: setting it again next tick allocates nothing
        }
    }

    /** The clock whose tick runs on this thread now (its sources and their callbacks), or null. */
    public static Clock ticking() {
        return TICKING.get();
    }

    private long tickOnce() {
        long start = System.nanoTime();
        if (sync == Sync.AUTO) lateness.record(start - (origin + ticks * frameNanos));
        Source[] all = sources;
        for (Source s : all) {
            try {
                s.beforeTick();
            } catch (Throwable e) {
                callbackFailed(s, e);
            }
        }
        for (int i = 0; i < outputs.size(); i++) {
            Output o = outputs.get(i);
            try {
                o.tick();
            } catch (Throwable e) { // an Error too: the output stops, not the clock's task
                if (e instanceof OutOfMemoryError oom) throw oom;
                log.error(
                        "clock {}: output {} failed and is stopped: {}",
                        id,
                        o.id(),
                        e.toString(),
                        e);
                outputs.remove(i--);
                stopQuietly(o);
            }
        }
        for (Source s : all) {
            try {
                s.afterTick();
            } catch (Throwable e) {
                callbackFailed(s, e);
            }
        }
        long end = System.nanoTime();
        ticks++;
        publishedTicks = ticks;
        long work = end - start;
        double sample = (double) work / frameNanos;
        duty = ticks == 1 ? sample : duty + DUTY_SMOOTHING * (sample - duty);
        reportWork += work;
        reportTicks++;
        if (outputs.isEmpty() || stopAfterTicks > 0 && ticks >= stopAfterTicks) {
            join();
            return -1;
        }
        long next = end;
        if (sync == Sync.AUTO) {
            next = origin + ticks * frameNanos;
            long behind = end - next;
            long dropped = 0;
            boolean tooLate = behind > config.maxLatencyNanos();
            if (tooLate || config.skipLagNanos() > 0 && behind > config.skipLagNanos()) {
                // Whole frames, so that the deadlines keep the phase the station gave them.
                dropped = behind / frameNanos * frameNanos;
                origin += dropped;
                next += dropped;
                behind -= dropped;
                skipped(dropped, end, tooLate);
            }
            lag = Math.max(0, behind) / 1e9;
            reportMaxLag = Math.max(reportMaxLag, lag);
            if (behind > config.warnLagNanos() && end - lastWarn > 5_000_000_000L) {
                lastWarn = end;
                log.warn("clock {}: {} s behind real time", id, String.format("%.2f", lag));
            }
            trackBehind(behind, dropped, end);
            // A clock still in its costly first frames is late by design: only joined ones count.
            if (admission != null && joined) {
                if (admission.finished()) admission = null;
                else
                    admission.ticked(
                            dropped > 0 || behind >= ClockAdmission.LATE_FRAMES * frameNanos, end);
            }
            if (!joined
                    && (ticks >= JOIN_FRAMES && behind <= JOIN_SLACK_FRAMES * frameNanos
                            || end - startNanos >= JOIN_TIMEOUT_NANOS)) join();
        } else {
            join();
        }
        if (config.reportNanos() > 0 && end - reportStart >= config.reportNanos()) report(end);
        return next;
    }

    /** Called before {@link #start} by the admission starting this clock. */
    void admittedBy(ClockAdmission a) {
        admission = a;
    }

    /** Runs {@code onJoined} the first time only. */
    private void join() {
        if (joined) return;
        joined = true;
        onJoined.run();
    }

    /**
     * Counts time dropped instead of caught up; the first skip is logged, then at most a line a
     * minute.
     */
    private void skipped(long droppedNanos, long now, boolean tooLate) {
        skippedNanos += droppedNanos;
        skips++;
        if (tooLate) {
            log.warn(
                    "clock {}: {} s behind real time, more than settings.clock.maxLatency: dropping the backlog",
                    id,
                    String.format("%.2f", droppedNanos / 1e9));
        } else if (skips == 1) {
            log.warn(
                    "clock {}: {} s behind real time: skipping ahead instead of catching up"
                            + " (settings.clock.catchUp = 'skip'); further skips are counted",
                    id,
                    String.format("%.2f", droppedNanos / 1e9));
            lastSkipLog = now;
        } else if (now - lastSkipLog > 60_000_000_000L) {
            lastSkipLog = now;
            log.warn(
                    "clock {}: skipped {} s of real time in {} skips so far",
                    id,
                    String.format("%.2f", skippedNanos / 1e9),
                    skips);
        }
    }

    /**
     * Since when the clock is behind: from a frame at its warning lag (a frame at least) or a skip,
     * until it has stayed within that for {@link #RECOVERED_NANOS}.
     */
    private void trackBehind(long behind, long dropped, long now) {
        if (dropped > 0 || behind >= Math.max(config.warnLagNanos(), frameNanos)) {
            if (behindSinceMillis == 0) behindSinceMillis = System.currentTimeMillis();
            lastBehindNanos = now;
        } else if (behindSinceMillis != 0 && now - lastBehindNanos > RECOVERED_NANOS) {
            behindSinceMillis = 0;
        }
    }

    private void report(long now) {
        if (log.isInfoEnabled()) {
            double windowDuty = (double) reportWork / (reportTicks * frameNanos);
            log.info(
                    "clock {}: duty {}%, lag {} s (max {} s), {} frames",
                    id,
                    String.format("%.2f", windowDuty * 100),
                    String.format("%.3f", lag),
                    String.format("%.3f", reportMaxLag),
                    reportTicks);
        }
        reportStart = now;
        reportWork = 0;
        reportTicks = 0;
        reportMaxLag = 0;
    }

    private void callbackFailed(Source s, Throwable e) {
        if (e instanceof OutOfMemoryError oom) throw oom;
        long now = System.nanoTime();
        if (now - lastCallbackError > 5_000_000_000L) {
            lastCallbackError = now;
            log.error("clock {}: an onFrame callback of {} failed: {}", id, s.id(), e.toString());
        }
    }

    private void stopQuietly(Output o) {
        try {
            o.stop();
        } catch (Exception e) {
            log.warn("clock {}: stopping output {}: {}", id, o.id(), e.toString());
        }
    }

    @Override
    public final String getId() {
        return id;
    }

    @Override
    public final double getDuty() {
        return duty;
    }

    @Override
    public final double getLag() {
        return lag;
    }

    /**
     * Since when the clock has been behind real time, in seconds since the epoch; 0 while it keeps
     * time.
     */
    @Override
    public final double getBehindSince() {
        return behindSinceMillis / 1e3;
    }

    /** Seconds of real time the clock dropped instead of catching up, since start. */
    @Override
    public final double getSkipped() {
        return skippedNanos / 1e9;
    }

    @Override
    public final long getTicks() {
        return publishedTicks;
    }

    @Override
    public final double getTime() {
        return publishedTicks * config.frameSeconds();
    }

    /**
     * The station's time at the start of the frame being produced (see {@link
     * StreamContext#now()}); on the clock's thread only. With {@code clock.startTime}, or on an
     * unsynced clock, it is the start time plus the stream time produced, so offline renders are
     * reproducible. On a real-time clock it is the wall-clock time at which the frame is due: it
     * advances by exactly one frame per tick (so every instant falls in exactly one frame, even
     * while the clock catches up), follows a dropped backlog, and re-anchors when the system clock
     * is stepped by more than a second (a machine that sets its time after boot).
     */
    public final ZonedDateTime now() {
        if (startWall == null)
            return config.startTime() != null
                    ? config.startTime()
                    : ZonedDateTime.now(config.zone()); // not started
        long t = ticks;
        if (t == timeTick) return time;
        ZonedDateTime at;
        if (config.startTime() != null || sync == Sync.NONE) {
            at = startWall.plusNanos(config.streamNanos(t));
        } else {
            long offset = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
            if (Math.abs(offset - wallOffsetNanos) > 1_000_000_000L)
                wallOffsetNanos = epochNanos(Instant.now()) - System.nanoTime();
            long due = origin + t * frameNanos + wallOffsetNanos;
            at =
                    Instant.ofEpochSecond(
                                    Math.floorDiv(due, 1_000_000_000L),
                                    Math.floorMod(due, 1_000_000_000L))
                            .atZone(config.zone());
        }
        timeTick = t;
        time = at;
        return at;
    }

    private static long epochNanos(Instant i) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    public final Sync sync() {
        return sync;
    }

    /**
     * When the next frame is due ({@link System#nanoTime()}); read it while the clock is stopped.
     */
    final long nextDue() {
        return origin + ticks * frameNanos;
    }

    /** Tick start lateness; read it only while the clock is stopped or for a rough figure. */
    public final LatenessHistogram lateness() {
        return lateness;
    }

    @Override
    public String toString() {
        return "clock " + id;
    }

    private record Context(
            AudioFormat format,
            int frameSize,
            VideoFormat video,
            Function<String, Object> settings,
            Clock clock,
            Executor blocking,
            boolean realtime,
            List<Runnable> startup,
            SplittableRandom seeds)
            implements StreamContext {
        @Override
        public Object setting(String name) {
            return settings.apply(name);
        }

        @Override
        public TickCache share(Source source, Consumer<Frame> fill) {
            return new SharedFrame(new Frame(format, frameSize), fill);
        }

        @Override
        public String describeFailure(Object callback, Throwable failure) {
            return ScriptFailure.describe(callback, failure);
        }

        @Override
        public void beforeStart(Runnable blockingWork) {
            startup.add(blockingWork);
        }

        @Override
        public ZonedDateTime now() {
            return clock.now();
        }

        @Override
        public ZoneId zone() {
            return clock.config.zone();
        }

        @Override
        public RandomGenerator random() {
            if (seeds == null) return new SplittableRandom();
            synchronized (seeds) {
                return seeds.split();
            }
        }
    }
}
