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
import java.util.function.Supplier;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.Output;
import org.groovecast.api.Registration;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.groovecast.host.clock.Clock;
import org.groovecast.host.clock.ClockConfig;
import org.groovecast.host.clock.Sync;
import org.groovecast.host.request.Protocols;
import org.groovecast.host.sched.BlockingPool;
import org.groovecast.host.sched.TaskScheduler;
import org.groovecast.host.script.FrontEnds;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptFailure;
import org.groovecast.host.script.ScriptFrontEnd;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.host.script.ScriptLine;
import org.groovecast.host.script.ScriptRuntime;
import org.groovecast.host.status.StationHealth;
import org.groovecast.host.status.StationStatus;
import org.groovecast.host.status.StatusPage;
import org.groovecast.host.status.StatusSampler;
import org.groovecast.net.Network;
import org.groovecast.net.control.Commands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One station: a script, the graph it built, and once started the clocks, scheduler and worker pool
 * that run it (its {@link StationRun}, made when it prepares). {@link #load} compiles and evaluates
 * the script without starting anything, which is all {@code groovecast check} does.
 */
public final class Station implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Station.class);

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

    /**
     * The clocks, pools and open outputs, made by {@link #prepare} (null before: a station only
     * loaded runs nothing).
     */
    private volatile StationRun run;

    /** On a shared port, what counts this station's metrics in, and out, of the port's. */
    private final List<Runnable> metricsOnAir = new ArrayList<>();

    private final List<Runnable> metricsOffAir = new ArrayList<>();

    /** The clocks the graph needs, planned when the script was loaded. */
    private List<ClockPlanner.Plan> clockPlans = List.of();

    private boolean stopped;
    private Network network;

    /** The network of the station this one replaces (a reload), which this one must not close. */
    private Network sharedNetwork;

    private volatile StationMetrics metrics;

    /**
     * The reloader's count of reloads (null for a station no reloader runs), which the metrics
     * show.
     */
    private volatile Reloads reloads;

    /**
     * Set when a reload took this station's sockets over ({@link #beginStop}): stopping it must
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

    /**
     * The script as its front end loaded it (Groovy's compiled classes, a Liquidsoap syntax tree),
     * unloaded when the station stops (a reload must not keep them).
     */
    private ScriptFrontEnd.Script compiled;

    /**
     * The pools and event loops of the process when it runs many stations (see {@link Stations}),
     * or null for a station that makes its own.
     */
    private SharedRuntime shared;

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
        return load(script, base, overrides, env, shared, reading, null);
    }

    /**
     * The same on the pools and event loops of the process ({@code runtime}, null: the station's
     * own), as each station of a process running many is.
     */
    public static Station load(
            Path script,
            ScriptFunctions base,
            Map<String, String> overrides,
            Map<String, String> env,
            Network shared,
            Consumer<Path> reading,
            SharedRuntime runtime) {
        Station station =
                new Station(
                        script.getFileName().toString(),
                        settings(script.getFileName().toString(), overrides),
                        env);
        station.shared = runtime;
        station.sharedNetwork = shared;
        if (shared != null) shared.beginLoad();
        ScriptFunctions functions = station.functions(base);
        try {
            return station.evaluate(
                    FrontEnds.forFile(script.getFileName().toString())
                            .load(script, functions, station.scriptSettings, reading),
                    functions);
        } catch (RuntimeException e) {
            // A first load that failed lets go of the mounts it claimed on ports shared with the
            // other stations (a reload's are the running station's: the reloader aborts them).
            if (shared == null && runtime != null) station.network.close();
            throw e;
        }
    }

    /** The same for script text, named {@code fileName} in messages. */
    public static Station load(
            String fileName, String text, ScriptFunctions base, Map<String, String> overrides) {
        Station station = new Station(fileName, settings(fileName, overrides), Map.of());
        ScriptFunctions functions = station.functions(base);
        return station.evaluate(
                FrontEnds.forFile(fileName).load(fileName, text, functions, station.scriptSettings),
                functions);
    }

    /** An environment variable as the script sees it, or null. */
    String env(String name) {
        String v = environment.get(name);
        return v != null ? v : System.getenv(name);
    }

    /**
     * The settings given from outside the script ({@code --set}): a refused value is the station's
     * mistake, named by its file without a line ({@code radio.groovy: settings.x expects ...}).
     */
    private static Settings settings(String fileName, Map<String, String> overrides) {
        Settings s = new Settings();
        try {
            overrides.forEach(s::set);
        } catch (ScriptException e) {
            throw new ScriptError(fileName, 0, e.getMessage());
        }
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
        if (sharedNetwork == null && shared != null) {
            network.useRuntime(shared::net);
            network.sharePorts(shared.harborPorts(), fileName);
        }
        commands = new Commands();
        StationCommands.station(commands, this);
        return FunctionTable.of(base, EngineOperators.of(this, network, commands, decoder));
    }

    /**
     * The function table a script loaded with {@code plugins} would see, for listings such as the
     * operator reference, or a front end's tests of its names and types: a station's own, built on
     * a network and commands that are never started.
     */
    public static ScriptFunctions functionTable(ScriptFunctions plugins) {
        return new Station("operators", new Settings(), Map.of()).functions(plugins);
    }

    /**
     * Serves the station's metrics (Prometheus text) at {@code path} on the harbor of {@code port};
     * the meters are bound when the station starts, since clocks exist only then.
     */
    void exposeMetrics(int port, String path) {
        Supplier<StationMetrics> own = () -> metrics;
        if (shared != null && port != 0) {
            // A port the process's stations may share: its path answers with every station
            // exposing there, once each is on air.
            SharedMetrics all = shared.metricsAt(port, path);
            network.harbor(port).addRoute(StationMetrics.route(path, all::scrape));
            metricsOnAir.add(() -> all.onAir(fileName, own));
            metricsOffAir.add(() -> all.stopped(fileName, own));
        } else {
            network.harbor(port)
                    .addRoute(StationMetrics.route(path, () -> StationMetrics.scrape(own)));
        }
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

    private Station evaluate(ScriptFrontEnd.Script compiled, ScriptFunctions functions) {
        this.compiled = compiled;
        try {
            return evaluateScript(functions);
        } catch (RuntimeException e) {
            compiled.unload();
            throw e;
        }
    }

    private Station evaluateScript(ScriptFunctions functions) {
        compiled.run(
                new ScriptRuntime(compiled.files(), functions, scriptSettings, graph, protocols)
                        .guardBlocking(org.groovecast.host.http.BlockingGuard::check));
        StationCommands.sources(commands, this);
        if (graph.outputs().isEmpty()
                && !network.servesAnything()
                && !compiled.runsWithoutOutputs()) {
            throw new ScriptError(
                    fileName,
                    0,
                    "the script defines no output and serves nothing, so there is nothing "
                            + "to run; add an output such as output.dummy(s) or output.file(wav(), 'out.wav', s), or a server "
                            + "such as rtmp.server()");
        }
        // Planned once, here: conflicts show at check time, and the run builds these clocks.
        clockPlans = ClockPlanner.plan(graph, Sync.parse(settings.string("clock.sync")));
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
        if (run != null) throw new IllegalStateException("station already started");
        StationRun run =
                new StationRun(
                        fileName,
                        settings,
                        graph,
                        network,
                        shared,
                        sharedNetwork == null,
                        clockPlans,
                        this::stop);
        this.run = run;
        ClockConfig config = ClockSettings.read(settings, fileName, generation);
        try {
            run.open(config);
        } catch (ScriptError e) {
            abandoned();
            throw e;
        }
        if (metricsWanted) {
            metrics =
                    new StationMetrics(
                            fileName,
                            run.clocks(),
                            network,
                            graph.sources(),
                            run.blocking(),
                            run.scheduler(),
                            reloads);
        }
        if (statusWanted) {
            status =
                    new StationStatus(
                            fileName,
                            List.<ClockInfo>copyOf(run.clocks()),
                            graph.outputs(),
                            graph.sources(),
                            network,
                            this::schedulerLoad,
                            new StationHealth(
                                    List.<ClockInfo>copyOf(run.clocks()),
                                    graph.outputs(),
                                    run.scheduler()::lastRunNanos,
                                    settings.number("scheduler.stallLimit")));
            if (shared != null) status.roster(shared::roster);
        }
        run.startUp(config, stopAfter);
    }

    /**
     * Starts the clocks of a prepared station, running {@code headStartNanos} of stream at once
     * (see {@link Clock#start}; a reload's successor catches up the swap so, 0 otherwise).
     */
    public synchronized void go(long headStartNanos) {
        StationRun run = this.run;
        run.startClocks(headStartNanos);
        deferred.forEach(Runnable::run);
        deferred.clear();
        if (status != null) StatusSampler.start(status, run.scheduler());
        onAir = true;
        predecessor = null;
        metricsOnAir.forEach(Runnable::run);
        run.reportLoad();
    }

    /**
     * The scheduler's load since start: busy share of its threads, and the blocking pool's state.
     */
    Map<String, Object> schedulerLoad() {
        StationRun r = run;
        return r != null ? r.schedulerLoad() : StationRun.NO_LOAD;
    }

    /**
     * Stops the clocks, flushes and closes the outputs, then the sockets and the pools; idempotent.
     */
    public void stop() {
        if (!beginStop(false)) return;
        stopClocks();
        stopOutputs();
        release();
    }

    // The phases of a stop, in the order both a plain stop and the reload's hand-over
    // (ReloadHandOver) run them; the hand-over runs its own steps between them.

    /**
     * Marks the station stopping; false when it is stopping already (then nothing more is done).
     * {@code handingOver}: a reload's end, which leaves the sockets to the new station.
     */
    boolean beginStop(boolean handingOver) {
        synchronized (this) {
            if (stopped) return false;
            stopped = true;
        }
        handedOver = handingOver;
        return true;
    }

    /** No clock runs after this (none for a station that never prepared). */
    void stopClocks() {
        StationRun r = run;
        if (r != null) r.stopClocks();
        if (status != null) status.release();
    }

    /** The outputs flush what they hold and close, but for what a successor took over. */
    void stopOutputs() {
        StationRun r = run;
        if (r != null) r.stopOutputs();
    }

    /**
     * Lets everything else go: metrics, the outputs' encoders, the sockets (unless handed over),
     * the pools, the script's classes.
     */
    void release() {
        metricsOffAir.forEach(Runnable::run);
        StationMetrics m = metrics;
        if (m != null)
            m.close(); // its JVM and logging hooks would keep this station alive after a reload
        for (Output o : graph.outputs()) o.shutdown();
        if (!handedOver) network.close();
        protocols.close();
        StationRun r = run;
        if (r != null) r.closePools();
        if (compiled != null) compiled.unload();
        log.info("station {} stopped", fileName);
        done.countDown();
    }

    /**
     * A {@link #prepare} that failed (its run closed its pools): no clock ever ran, so the station
     * ends as it stands. Under the lock {@link #prepare} holds.
     */
    void abandoned() {
        stopped = true;
        done.countDown();
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
        ScheduledRun scheduled = new ScheduledRun(this, delay, every, fast, f);
        if (taskScheduler() == null) deferred.add(scheduled::schedule);
        else scheduled.schedule();
        return scheduled;
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

    /**
     * A failure of the script's code that ran on a thread of the station (a {@code thread.run}
     * function), as a log says it: at the script line in its trace.
     */
    String scriptFailure(Throwable e) {
        return ScriptFailure.located(e, compiled.files());
    }

    /** Where the script runs now (file and line), for messages about what it asks. */
    ScriptLine scriptLine() {
        return compiled.currentLine().orElse(new ScriptLine(fileName, 0));
    }

    /**
     * The class the script compiled to (tests check that a reload leaves none behind); null for a
     * script that compiles to none (Liquidsoap's).
     */
    public Class<?> scriptClass() {
        return compiled.compiledClass();
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
        return run != null ? List.copyOf(run.clocks()) : List.of();
    }

    /** The blocking pool, for tests and metrics; null before start. */
    public BlockingPool blockingPool() {
        StationRun r = run;
        return r != null ? r.blocking() : null;
    }

    /** The scheduler, for tests and benchmarks; null before start. */
    public TaskScheduler taskScheduler() {
        StationRun r = run;
        return r != null ? r.scheduler() : null;
    }
}
