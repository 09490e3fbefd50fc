package org.groovecast.host;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Output;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.clock.ClockAdmission;
import org.groovecast.host.clock.ClockConfig;
import org.groovecast.host.clock.TaskClock;
import org.groovecast.host.clock.ThreadClock;
import org.groovecast.host.sched.BlockingPool;
import org.groovecast.host.sched.TaskScheduler;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptLine;
import org.groovecast.net.Network;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.clients.TrustedProxies;
import org.groovecast.net.harbor.sessions.AccessLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a {@link Station}'s graph: the clocks, the scheduler and the blocking pool that play
 * it, its sockets started and its outputs opened, from {@link Station#prepare} to the station's
 * stop. The station makes it when it prepares, so that a station only loaded (checked, or a reload
 * that failed to load) has none.
 *
 * <p>Not thread-safe by itself: the station calls it under its own lock, save the steps of its
 * stop, which the station runs once.
 */
final class StationRun {
    /**
     * The station's logger: these lines were always the station's, and tests and log configurations
     * select them by its name.
     */
    private static final Logger log = LoggerFactory.getLogger(Station.class);

    /*
     * Clocks are spread over a few deadlines per frame: few, so that one scheduler wake-up still
     * serves many clocks (every phase costs a wake-up per frame), and more than one once there are
     * enough clocks that their ticks queued at one instant would make the last ones late.
     */
    private static final int MAX_PHASES = 4;
    private static final int CLOCKS_PER_PHASE = 25;

    /** The scheduler's load while there is no scheduler (before the station prepares). */
    static final Map<String, Object> NO_LOAD =
            Map.of("busy", 0.0, "threads", 0, "blockingRunning", 0, "blockingQueued", 0);

    private final String fileName;
    private final Settings settings;
    private final StationGraph graph;
    private final Network network;

    /** The process's pools when it runs many stations; null: the run makes its own. */
    private final SharedRuntime shared;

    private final List<ClockPlanner.Plan> plans;

    /** What ends the station once every clock ended by itself (a {@code stopAfter} render). */
    private final Runnable allClocksEnded;

    /** False on a reload's sockets, which a failed prepare must leave to the running station. */
    private final boolean ownsNetwork;

    private final List<Clock> clocks = new ArrayList<>();
    private TaskScheduler scheduler;
    private BlockingPool blocking;
    private long startedAt;

    /**
     * Set by {@link #startUp}, read by {@link #startClocks}: the clocks' settings and how long they
     * run (0: until stopped).
     */
    private ClockConfig clockConfig;

    private long stopTicks;

    /**
     * A run of {@code graph} on {@code network}, with the clocks {@code plans} gives ({@link
     * ClockPlanner}); {@code allClocksEnded} stops the station.
     */
    StationRun(
            String fileName,
            Settings settings,
            StationGraph graph,
            Network network,
            SharedRuntime shared,
            boolean ownsNetwork,
            List<ClockPlanner.Plan> plans,
            Runnable allClocksEnded) {
        this.fileName = fileName;
        this.settings = settings;
        this.graph = graph;
        this.network = network;
        this.shared = shared;
        this.ownsNetwork = ownsNetwork;
        this.plans = plans;
        this.allClocksEnded = allClocksEnded;
    }

    /**
     * Builds the pools and the clocks, binds and starts the sockets and opens the outputs, then
     * freezes the graph; on a failure to bind or open, the run ends there and a located script
     * error is thrown.
     */
    void open(ClockConfig config) {
        scheduler =
                shared != null
                        ? shared.scheduler()
                        : new TaskScheduler(
                                settings.integer("scheduler.threads"),
                                Duration.ofNanos(
                                        ClockSettings.seconds(settings, "scheduler.timerSlack")),
                                64);
        blocking =
                shared != null
                        ? shared.blocking()
                        : new BlockingPool(settings.integer("scheduler.blockingTasks"));
        boolean task = settings.bool("clock.task");
        for (ClockPlanner.Plan plan : plans) {
            ClockConfig own = config.forClock(clocks.size());
            Clock c =
                    task
                            ? new TaskClock(plan.id(), plan.sync(), own, scheduler)
                            : new ThreadClock(plan.id(), plan.sync(), own);
            c.attach(plan.outputs(), blocking);
            if (plan.handle() != null) plan.handle().bind(c);
            clocks.add(c);
        }
        try {
            HarborLimits limits = HarborSettings.limits(settings);
            TrustedProxies proxies = HarborSettings.trustedProxies(settings);
            AccessLog accessLog = HarborSettings.accessLog(settings);
            for (HarborServer h : network.harbors()) {
                h.limits(limits);
                h.trustedProxies(proxies);
                h.accessLog(accessLog);
                h.adminPassword(settings.string("harbor.adminPassword"));
                h.serverId(StationCommands.engine());
            }
            network.bind(
                    settings.string(
                            "harbor.bind")); // as the script set it: it ran after the network was
            // made
            network.start(Math.max(1, Math.min(settings.integer("harbor.eventLoops"), 16)));
        } catch (IllegalStateException
                | IllegalArgumentException e) { // a port taken, a harbor setting out of range
            // A reload's station keeps the running one's ports; a first start that failed lets go
            // of what it declared on ports it shares with the other stations.
            if (shared != null && ownsNetwork) network.close();
            abandon();
            throw new ScriptError(fileName, 0, e.getMessage(), e);
        }
        List<Output> opened = new ArrayList<>();
        for (Clock c : clocks) {
            for (Output o : c.outputs()) {
                try {
                    o.start();
                    opened.add(o);
                } catch (Exception e) {
                    for (Output x : opened) stopQuietly(x);
                    // A failed reload leaves the running station's sockets.
                    if (ownsNetwork) network.close();
                    abandon();
                    ScriptLine at =
                            graph.line(o) != null ? graph.line(o) : new ScriptLine(fileName, 0);
                    throw new ScriptError(
                            at.file(), at.line(), o.id() + " cannot start: " + e.getMessage(), e);
                }
            }
        }
        graph.freeze();
    }

    /**
     * The rest of preparing, once the station bound its meters to the clocks: the sources' startup
     * work, and the stream time after which the clocks end ({@code stopAfter}, null: never).
     */
    void startUp(ClockConfig config, Duration stopAfter) {
        StartupWork.run(fileName, clocks, blocking);
        stopTicks =
                stopAfter == null
                        ? 0
                        : (long) Math.ceil(stopAfter.toNanos() / (double) config.frameNanos());
        clockConfig = config;
    }

    /**
     * Starts the clocks, running {@code headStartNanos} of stream at once (see {@link
     * Clock#start}).
     */
    void startClocks(long headStartNanos) {
        ClockConfig config = clockConfig;
        long ticks = stopTicks;
        log.info(
                "station {}: {} clock(s), {} output(s), frame {} samples at {} Hz, clocks as {}",
                fileName,
                clocks.size(),
                clocks.stream().mapToInt(c -> c.outputs().size()).sum(),
                config.frameSize(),
                config.format().sampleRate(),
                settings.bool("clock.task") ? "scheduler tasks" : "threads");
        int phases = Math.max(1, Math.min(MAX_PHASES, clocks.size() / CLOCKS_PER_PHASE));
        startedAt = System.nanoTime();
        ClockAdmission.start(
                clocks,
                settings.integer("clock.joining"),
                phases,
                config.frameNanos(),
                ticks,
                headStartNanos,
                // A reload's successor (its head start) replaces streams that were on air: none of
                // them waits for the others to keep up.
                headStartNanos == 0,
                this::clockFinished);
    }

    /** The periodic scheduler load line, once the clocks run. */
    void reportLoad() {
        LoadReport.start(scheduler, blocking, clockConfig.reportNanos());
    }

    /**
     * The scheduler's load since start: busy share of its threads, and the blocking pool's state.
     */
    Map<String, Object> schedulerLoad() {
        if (scheduler == null) return NO_LOAD;
        double elapsed = (System.nanoTime() - startedAt) * (double) scheduler.threads();
        return Map.of(
                "busy",
                elapsed <= 0 ? 0.0 : scheduler.busyNanos() / elapsed,
                "threads",
                scheduler.threads(),
                "blockingRunning",
                blocking.inFlight(),
                "blockingQueued",
                blocking.queued());
    }

    private void clockFinished() {
        for (Clock c : clocks) {
            if (!c.isFinished()) return;
        }
        // Not on the scheduler thread that just finished: stopping joins the scheduler's threads.
        Thread.ofVirtual().start(allClocksEnded);
    }

    /**
     * The first step of stopping: no clock runs once this returns, but for one whose tick does not
     * end (a script callback that never returns), given up on after {@link Clock#STOP_WAIT}: all
     * clocks are asked first and waited for together, so that the stop takes that once at most.
     */
    void stopClocks() {
        for (Clock c : clocks) c.beginStop();
        long deadline = System.nanoTime() + Clock.STOP_WAIT.toNanos();
        for (Clock c : clocks) c.awaitStopped(deadline);
    }

    /** Flushes and closes the outputs (stopped clocks write nothing more to them). */
    void stopOutputs() {
        for (Clock c : clocks) {
            for (Output o : c.outputs()) stopQuietly(o);
        }
    }

    /**
     * An {@link #open} that failed: no clock ever ran, so the run ends as it stands (and the
     * station with it, told by the error thrown).
     */
    private void abandon() {
        closePools();
    }

    void closePools() {
        if (scheduler != null) scheduler.close();
        if (blocking != null) blocking.close();
    }

    private void stopQuietly(Output o) {
        try {
            o.stop();
        } catch (Exception e) {
            log.warn("{}: {} did not stop cleanly: {}", fileName, o.id(), e.toString());
        }
    }

    /** The clocks, in the order they were built. */
    List<Clock> clocks() {
        return List.copyOf(clocks);
    }

    /** Null until {@link #open} built it. */
    BlockingPool blocking() {
        return blocking;
    }

    /** Null until {@link #open} built it. */
    TaskScheduler scheduler() {
        return scheduler;
    }
}
