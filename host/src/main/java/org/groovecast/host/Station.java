package org.groovecast.host;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.Output;
import org.groovecast.api.Registration;
import org.groovecast.api.UserFunction;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.clock.ClockConfig;
import org.groovecast.host.clock.Sync;
import org.groovecast.host.clock.TaskClock;
import org.groovecast.host.clock.ThreadClock;
import org.groovecast.host.request.Protocols;
import org.groovecast.host.sched.BlockingPool;
import org.groovecast.host.sched.TaskScheduler;
import org.groovecast.host.script.ScriptCompiler;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.host.script.ScriptLine;
import org.groovecast.host.script.ScriptLocation;
import org.groovecast.host.script.ScriptRuntime;
import org.groovecast.host.script.StationScript;
import org.groovecast.host.status.StationStatus;
import org.groovecast.host.status.StatusPage;
import org.groovecast.host.status.StatusSampler;
import org.groovecast.net.Network;
import org.groovecast.net.control.Commands;
import org.groovecast.net.harbor.HarborLimits;
import org.groovecast.net.harbor.HarborServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One station: a script, the graph it built, and once started the clocks, scheduler and worker pool
 * that run it. {@link #load} compiles and evaluates the script without starting anything, which is
 * all {@code groovecast check} does.
 */
public final class Station implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Station.class);
    /*
     * Clocks are spread over a few deadlines per frame: few, so that one scheduler wake-up still
     * serves many clocks (every phase costs a wake-up per frame), and more than one once there are
     * enough clocks that their ticks queued at one instant would make the last ones late.
     */
    private static final int MAX_PHASES = 4;
    private static final int CLOCKS_PER_PHASE = 25;

    private final String fileName;
    private final Settings settings;

    /** The same settings as the script package sees them (it knows no engine class). */
    private final SettingsForScript scriptSettings;

    private final Map<String, String> environment;
    private final StationGraph graph = new StationGraph();
    private final ScriptLog scriptLog;

    /** The request protocols: the built-in ones and those the script adds. */
    private final Protocols protocols;

    private final long loadedAt = System.nanoTime();
    private final List<Runnable> deferred = new ArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private final List<Clock> clocks = new ArrayList<>();
    private TaskScheduler scheduler;
    private BlockingPool blocking;
    private boolean started;
    private long startedAt;
    private boolean stopped;
    private Network network;

    /**
     * Set by {@link #prepare}, read by {@link #go}: the clocks' settings and how long they run (0:
     * until stopped).
     */
    private ClockConfig clockConfig;

    private long stopTicks;

    /** The network of the station this one replaces (a reload), which this one must not close. */
    private Network sharedNetwork;

    private volatile StationMetrics metrics;

    /**
     * The reloader's count of reloads (null for a station no reloader runs), which the metrics
     * show.
     */
    private volatile Reloads reloads;

    /**
     * Set when a reload took this station's sockets over ({@link #handOver}): stopping it must
     * leave them open.
     */
    private volatile boolean handedOver;

    private boolean metricsWanted;
    private volatile StationStatus status;
    private boolean statusWanted;
    private volatile boolean onAir;

    /**
     * The station this one replaces until it is on air; then forgotten, so as not to hold its
     * graph.
     */
    private volatile Station predecessor;

    private Commands commands;

    /** The script's classes, unloaded when the station stops (a reload must not keep them). */
    private ScriptCompiler.Compiled compiled;

    private Station(String fileName, Settings settings, Map<String, String> environment) {
        this.fileName = fileName;
        this.settings = settings;
        this.scriptSettings = new SettingsForScript(settings);
        this.environment = environment;
        this.scriptLog = new ScriptLog(fileName);
        this.protocols =
                new Protocols(
                        () -> settings.number("request.timeout"),
                        () -> settings.integer("request.maxDownload"),
                        () -> compiled.files());
    }

    /**
     * Compiles and runs {@code script}, building its graph; throws located script errors. {@code
     * env} overrides the process environment for the script's {@code env()} (how tests and
     * embedders pass parameters to a script).
     */
    public static Station load(
            Path script,
            ScriptFunctions base,
            Map<String, String> overrides,
            Map<String, String> env) {
        return load(script, base, overrides, env, null, p -> {});
    }

    /**
     * The same on the sockets of a running station ({@code shared}, null for its own): a reload.
     * Mounts the new script declares again keep their listeners; the new station does not close the
     * shared network when it stops. A script that fails to load leaves the network as it was.
     * {@code reading} is told of every file the script includes (for {@code run --watch}), even
     * when it fails.
     */
    public static Station load(
            Path script,
            ScriptFunctions base,
            Map<String, String> overrides,
            Map<String, String> env,
            Network shared,
            Consumer<Path> reading) {
        Station station = new Station(script.getFileName().toString(), settings(overrides), env);
        station.sharedNetwork = shared;
        if (shared != null) shared.beginLoad();
        ScriptFunctions functions = station.functions(base);
        return station.evaluate(
                ScriptCompiler.compile(script, functions, station.scriptSettings, reading),
                functions);
    }

    /** The same for script text, named {@code fileName} in messages. */
    public static Station load(
            String fileName, String text, ScriptFunctions base, Map<String, String> overrides) {
        Station station = new Station(fileName, settings(overrides), Map.of());
        ScriptFunctions functions = station.functions(base);
        return station.evaluate(
                ScriptCompiler.compile(fileName, text, functions, station.scriptSettings),
                functions);
    }

    /** An environment variable as the script sees it, or null. */
    String env(String name) {
        String v = environment.get(name);
        return v != null ? v : System.getenv(name);
    }

    private static Settings settings(Map<String, String> overrides) {
        Settings s = new Settings();
        overrides.forEach(s::set);
        return s;
    }

    /**
     * The script's function table: the plugins' operators and the engine's, on this station's
     * network and commands.
     */
    private ScriptFunctions functions(ScriptFunctions base) {
        LiveDecoder decoder = base.service(LiveDecoder.class);
        network =
                sharedNetwork != null
                        ? sharedNetwork
                        : new Network(
                                settings.string("harbor.bind"),
                                settings.integer("harbor.maxBody"),
                                decoder);
        commands = new Commands();
        StationCommands.station(commands, this);
        return FunctionTable.of(base, EngineOperators.of(this, network, commands, decoder));
    }

    /**
     * The function table a script loaded with {@code plugins} would see, for listings such as the
     * operator reference: a station's own, built on a network and commands that are never started.
     */
    static ScriptFunctions functionTable(ScriptFunctions plugins) {
        return new Station("operators", new Settings(), Map.of()).functions(plugins);
    }

    /**
     * Serves the station's metrics (Prometheus text) at {@code path} on the harbor of {@code port};
     * the meters are bound when the station starts, since clocks exist only then.
     */
    void exposeMetrics(int port, String path) {
        network.harbor(port).addRoute(StationMetrics.route(path, () -> metrics));
        metricsWanted = true;
    }

    /**
     * Serves the status page and the JSON APIs on the harbor of {@code port} (see {@link
     * StatusPage}).
     */
    void exposeStatus(int port, String path, BiPredicate<String, String> credentials) {
        StatusPage.register(
                network.harbor(port),
                path,
                credentials,
                this::statusOnAir,
                commands,
                StationCommands.engine());
        statusWanted = true;
    }

    /**
     * What the status page shows; null unless the script asked for it, or before the station
     * starts.
     */
    public StationStatus status() {
        return status;
    }

    /**
     * The status of the station on air: this one's once its clocks run; until then (its routes
     * answer from the moment it binds) the one it replaces, which a failed reload leaves on air.
     */
    private StationStatus statusOnAir() {
        if (onAir) return status;
        Station before = predecessor;
        return before != null ? before.statusOnAir() : null;
    }

    /**
     * A reload: {@code previous} stays on air while this station prepares (see {@link
     * #statusOnAir}).
     */
    public void follows(Station previous) {
        predecessor = previous;
        generation = previous.generation + 1;
    }

    /**
     * Which reload of the first station this is: 0 for it, 1 for its first successor... (see {@link
     * ClockSettings}).
     */
    private int generation;

    private volatile BooleanSupplier reloadHook;

    /**
     * What the control's {@code reload} command runs, or null when nothing can reload this station.
     */
    BooleanSupplier reloadHook() {
        return reloadHook;
    }

    public void reloadHook(BooleanSupplier hook) {
        reloadHook = hook;
    }

    /** The reloads of the process so far, for the metrics; before {@link #prepare}. */
    void reloads(Reloads r) {
        reloads = r;
    }

    /** The station's sockets (harbor ports). */
    public Network network() {
        return network;
    }

    /** The control commands (telnet, HTTP): the engine's, each source's and the script's own. */
    public Commands commands() {
        return commands;
    }

    private Station evaluate(ScriptCompiler.Compiled compiled, ScriptFunctions functions) {
        this.compiled = compiled;
        try {
            return evaluateScript(compiled.instantiate(), functions);
        } catch (RuntimeException e) {
            compiled.unload();
            throw e;
        }
    }

    private Station evaluateScript(StationScript script, ScriptFunctions functions) {
        new ScriptRuntime(compiled.files(), functions, scriptSettings, graph, protocols)
                .run(script);
        StationCommands.sources(commands, this);
        if (graph.outputs().isEmpty() && !network.servesAnything()) {
            throw new ScriptError(
                    fileName,
                    0,
                    "the script defines no output and serves nothing, so there is nothing "
                            + "to run; add an output such as output.dummy(s) or output.file(wav(), 'out.wav', s), or a server "
                            + "such as rtmp.server()");
        }
        ClockPlanner.plan(
                graph, Sync.parse(settings.string("clock.sync"))); // conflicts show at check time
        ClockSettings.check(settings, fileName);
        return this;
    }

    /**
     * Prepares the graph, opens the outputs and starts the clocks.
     *
     * @param stopAfter stream time after which each clock ends by itself (offline rendering); null
     *     to run until stopped
     */
    public synchronized void start(Duration stopAfter) {
        prepare(stopAfter);
        go(0);
    }

    /**
     * Everything {@link #start} does before the clocks run: clocks built, graph prepared, sockets
     * bound, outputs opened, first tracks ready. A reload prepares the new station while the old
     * one still plays, so that the swap itself is only stopping one set of clocks and starting
     * another.
     */
    public synchronized void prepare(Duration stopAfter) {
        if (started) throw new IllegalStateException("station already started");
        started = true;
        ClockConfig config = ClockSettings.read(settings, fileName, generation);
        scheduler =
                new TaskScheduler(
                        settings.integer("scheduler.threads"),
                        Duration.ofNanos(ClockSettings.seconds(settings, "scheduler.timerSlack")),
                        64);
        blocking = new BlockingPool(settings.integer("scheduler.blockingTasks"));
        boolean task = settings.bool("clock.task");
        for (ClockPlanner.Plan plan :
                ClockPlanner.plan(graph, Sync.parse(settings.string("clock.sync")))) {
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
            for (HarborServer h : network.harbors()) h.limits(limits);
            network.bind(
                    settings.string(
                            "harbor.bind")); // as the script set it: it ran after the network was
            // made
            network.start(Math.max(1, Math.min(settings.integer("harbor.eventLoops"), 16)));
        } catch (IllegalStateException
                | IllegalArgumentException e) { // a port taken, a harbor setting out of range
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
                    if (sharedNetwork == null)
                        network.close(); // a failed reload leaves the running station's sockets
                    abandon();
                    ScriptLine at =
                            graph.line(o) != null ? graph.line(o) : new ScriptLine(fileName, 0);
                    throw new ScriptError(
                            at.file(), at.line(), o.id() + " cannot start: " + e.getMessage(), e);
                }
            }
        }
        graph.freeze();
        if (metricsWanted) {
            metrics =
                    new StationMetrics(
                            fileName,
                            List.copyOf(clocks),
                            network,
                            graph.sources(),
                            blocking,
                            scheduler,
                            reloads);
        }
        if (statusWanted) {
            status =
                    new StationStatus(
                            fileName,
                            List.<ClockInfo>copyOf(clocks),
                            graph.outputs(),
                            graph.sources(),
                            network,
                            this::schedulerLoad);
        }
        StartupWork.run(fileName, clocks, blocking);
        stopTicks =
                stopAfter == null
                        ? 0
                        : (long) Math.ceil(stopAfter.toNanos() / (double) config.frameNanos());
        clockConfig = config;
    }

    /**
     * Starts the clocks of a prepared station, running {@code headStartNanos} of stream at once
     * (see {@link Clock#start}; a reload's successor catches up the swap so, 0 otherwise).
     */
    public synchronized void go(long headStartNanos) {
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
        for (int i = 0; i < clocks.size(); i++) {
            clocks.get(i)
                    .start(
                            ticks,
                            this::clockFinished,
                            (i % phases) * config.frameNanos() / phases,
                            headStartNanos);
        }
        deferred.forEach(Runnable::run);
        deferred.clear();
        if (status != null) StatusSampler.start(status, scheduler);
        onAir = true;
        predecessor = null;
        LoadReport.start(scheduler, blocking, config.reportNanos());
    }

    /**
     * The scheduler's load since start: busy share of its threads, and the blocking pool's state.
     */
    Map<String, Object> schedulerLoad() {
        if (scheduler == null)
            return Map.of("busy", 0.0, "threads", 0, "blockingRunning", 0, "blockingQueued", 0);
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
        Thread.ofVirtual().start(this::stop);
    }

    /**
     * Stops the clocks, flushes and closes the outputs, then the sockets and the pools; idempotent.
     */
    public void stop() {
        stop(null, null);
    }

    /**
     * A reload's end of this station: it stops as {@link #stop()} does but leaves its sockets to
     * the new station. {@code betweenClocksAndShutdown} runs once no clock runs any more and before
     * the sources shut down (the reload moves their state to the new station then); {@code
     * successor} runs once the outputs closed, before the sources and pools shut down: the reload
     * starts the new station's clocks there, so that listeners do not wait for the old station's
     * threads to end.
     */
    public void handOver(Runnable betweenClocksAndShutdown, Runnable successor) {
        handedOver = true;
        stop(betweenClocksAndShutdown, successor);
    }

    private void stop(Runnable betweenClocksAndShutdown, Runnable successor) {
        synchronized (this) {
            if (stopped) return;
            stopped = true;
        }
        for (Clock c : clocks) c.stop();
        if (status != null) status.release();
        if (betweenClocksAndShutdown != null) {
            try {
                betweenClocksAndShutdown.run();
            } catch (RuntimeException e) {
                log.warn("{}: {}", fileName, e.toString());
            }
        }
        for (Clock c : clocks) {
            for (Output o : c.outputs()) stopQuietly(o);
        }
        if (successor != null) successor.run();
        StationMetrics m = metrics;
        if (m != null)
            m.close(); // its JVM and logging hooks would keep this station alive after a reload
        for (Output o : graph.outputs()) o.shutdown();
        if (!handedOver) network.close();
        protocols.close();
        closePools();
        if (compiled != null) compiled.unload();
        log.info("station {} stopped", fileName);
        done.countDown();
    }

    /** A {@link #prepare} that failed: no clock ever ran, so the station ends as it stands. */
    private void abandon() {
        closePools();
        stopped = true;
        done.countDown();
    }

    private void closePools() {
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

    @Override
    public void close() {
        stop();
    }

    /** Waits until the station stopped (all clocks ended, or {@link #stop()}). */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Schedules a script function; before start it waits for the scheduler. */
    synchronized Registration runLater(double delay, double every, boolean fast, UserFunction f) {
        ScheduledRun run = new ScheduledRun(this, delay, every, fast, f);
        if (scheduler == null) deferred.add(run::schedule);
        else run.schedule();
        return run;
    }

    double uptime() {
        return (System.nanoTime() - loadedAt) / 1e9;
    }

    public String fileName() {
        return fileName;
    }

    /** The files the script is made of, itself first, then what it includes (absolute paths). */
    public List<Path> scriptFiles() {
        return compiled.files().paths();
    }

    /** Where the script runs now (file and line), for messages about what it asks. */
    ScriptLine scriptLine() {
        return ScriptLocation.current(compiled.files()).orElse(new ScriptLine(fileName, 0));
    }

    /** The class the script compiled to (tests check that a reload leaves none behind). */
    public Class<?> scriptClass() {
        return compiled.type();
    }

    public Settings settings() {
        return settings;
    }

    public StationGraph graph() {
        return graph;
    }

    public ScriptLog scriptLog() {
        return scriptLog;
    }

    /** The station's request protocols ({@code protocol.add} adds to them). */
    Protocols protocols() {
        return protocols;
    }

    public synchronized List<ClockInfo> clocks() {
        return List.copyOf(clocks);
    }

    /** The blocking pool, for tests and metrics; null before start. */
    public BlockingPool blockingPool() {
        return blocking;
    }

    /** The scheduler, for tests and benchmarks; null before start. */
    public TaskScheduler taskScheduler() {
        return scheduler;
    }
}
