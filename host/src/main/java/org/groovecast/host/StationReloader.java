package org.groovecast.host;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.groovecast.api.Source;
import org.groovecast.host.script.ScriptFunctions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A station that can be reloaded from its script while it runs. A reload compiles and builds the
 * new script first; if that fails the running station stays on air and the error is logged with its
 * line. If it succeeds, the new station takes over the sockets (harbor mounts declared again keep
 * their listeners connected), the old one stops, the new one starts: {@link ReloadHandOver} takes
 * these steps, in order.
 *
 * <p>A stop ({@link #requestStop}) may come at any moment, also while the first station starts or a
 * reload swaps stations. While a script compiles, nothing of its station is open yet: the station
 * on air (if any) stops at once and the compile, when it ends, goes no further. Once a new station
 * is being prepared, the stop is recorded and applied to the station that ends up on air when the
 * start or the swap is done. No station is left running, or half started, by a stop in between.
 */
public final class StationReloader {
    private static final Logger log = LoggerFactory.getLogger(StationReloader.class);

    private final Path script;
    private final java.util.function.Supplier<ScriptFunctions> functions;
    private final Map<String, String> settings;

    /** The process's pools and event loops when it runs many stations; null: each its own. */
    private final SharedRuntime runtime;

    private volatile Station current;

    private volatile Report last;

    /** Counted across stations: each reload's station has new metrics, which read these. */
    private final Reloads reloads = new Reloads();

    /**
     * Told of each file the script includes, at every (re)load: {@code run --watch} watches them.
     */
    private volatile Consumer<Path> included = p -> {};

    /** Guards {@link #phase} and {@link #stopRequested}, and is notified when either changes. */
    private final Object state = new Object();

    private Phase phase = Phase.IDLE;
    private boolean stopRequested;

    /** Where a start or a reload is. */
    private enum Phase {
        IDLE,
        /**
         * Compiling and building the graph: nothing of the new station is open, a stop need not
         * wait.
         */
        LOADING,
        /**
         * Opening outputs, binding ports, swapping stations: a stop waits, then stops what ends up
         * on air.
         */
        PREPARING
    }

    /**
     * What the last successful reload did: outputs kept with their connections, started, stopped
     * (each as kind and {@code id:} or endpoint), and the sources that carried their state over.
     */
    public record Report(
            long millis,
            List<String> kept,
            List<String> started,
            List<String> stopped,
            List<String> carried) {}

    public StationReloader(Path script, ScriptFunctions functions, Map<String, String> settings) {
        this(script, () -> functions, settings);
    }

    /**
     * @param functions asked again at every reload (see {@link
     *     org.groovecast.host.plugin.PluginSet})
     */
    public StationReloader(
            Path script,
            java.util.function.Supplier<ScriptFunctions> functions,
            Map<String, String> settings) {
        this(script, functions, settings, null);
    }

    /**
     * The same for one of the stations of a process, each of whose stations runs on {@code
     * runtime}.
     */
    public StationReloader(
            Path script,
            java.util.function.Supplier<ScriptFunctions> functions,
            Map<String, String> settings,
            SharedRuntime runtime) {
        this.script = script;
        this.functions = functions;
        this.settings = settings;
        this.runtime = runtime;
    }

    public Path script() {
        return script;
    }

    /**
     * Loads and starts the first station; throws its script errors. Returns null, having started
     * nothing, when a stop was requested before or while the script compiled.
     */
    public synchronized Station start() {
        if (!enter()) return null;
        try {
            Station s =
                    Station.load(
                            script, functions.get(), settings, Map.of(), null, included, runtime);
            s.reloadHook(this::reload);
            s.reloads(reloads);
            if (!prepareUnlessStopped()) {
                s.network().close(); // nothing bound yet: only what it declared is let go
                return null;
            }
            s.start(null);
            current = s;
            return s;
        } finally {
            exit();
        }
    }

    /**
     * Begins a start or a reload; false once a stop was requested (then there is nothing to do).
     */
    private boolean enter() {
        synchronized (state) {
            if (stopRequested) return false;
            phase = Phase.LOADING;
            return true;
        }
    }

    /**
     * From compiling to preparing the new station, unless a stop came meanwhile (then false: give
     * up).
     */
    private boolean prepareUnlessStopped() {
        synchronized (state) {
            if (stopRequested) return false;
            phase = Phase.PREPARING;
            return true;
        }
    }

    /**
     * Ends a start or a reload, and stops the station it left on air if a stop was requested
     * meanwhile.
     */
    private void exit() {
        Station s;
        synchronized (state) {
            phase = Phase.IDLE;
            state.notifyAll();
            if (!stopRequested) return;
            s = current;
        }
        if (s != null) s.stop();
    }

    /**
     * Tells {@code listener} of every file the script includes, at the start and at each reload,
     * even one that fails (an include of a file not written yet): a watcher then follows it from
     * then on.
     */
    public void onIncludedFile(Consumer<Path> listener) {
        included = listener;
    }

    /** The last successful reload's report, or null before one. */
    public Report lastReload() {
        return last;
    }

    public Station current() {
        return current;
    }

    /**
     * Reloads the script; returns true if the new station is on air, false if the old one stays (or
     * the station is stopping: a stop requested before or during the reload wins).
     */
    public synchronized boolean reload() {
        if (current == null || !enter()) {
            log.info(
                    "reload of {} skipped: the station is {}",
                    script.getFileName(),
                    current == null ? "not started" : "stopping");
            return false;
        }
        try {
            return swap();
        } finally {
            exit();
        }
    }

    private boolean swap() {
        long t0 = System.nanoTime();
        ReloadHandOver handOver =
                new ReloadHandOver(current, reloads, script.getFileName().toString());
        Station next =
                handOver.run(
                        old ->
                                Station.load(
                                        script,
                                        functions.get(),
                                        settings,
                                        Map.of(),
                                        old.network(),
                                        included,
                                        runtime),
                        this::prepareUnlessStopped,
                        this::reload);
        if (next == null) return false;
        current = next;
        reloads.recordSuccess(System.nanoTime() - t0);
        Succession outputs = handOver.outputs();
        List<String> kept = new ArrayList<>(describe(outputs.pairs().keySet()));
        kept.addAll(next.network().lastKept()); // servers that kept their connections
        last =
                new Report(
                        (System.nanoTime() - t0) / 1_000_000,
                        kept,
                        describe(outputs.added()),
                        describe(outputs.removed()),
                        handOver.carried());
        log.info(
                "reload of {} in {} ms: kept {}; started {}; stopped {}; sources carried over {}",
                script.getFileName(),
                last.millis(),
                last.kept(),
                last.started(),
                last.stopped(),
                last.carried());
        return true;
    }

    private static List<String> describe(java.util.Collection<? extends Source> outputs) {
        List<String> d = new ArrayList<>();
        for (Source o : outputs) {
            String key = Succession.key(o);
            d.add(key != null ? key : o.kind());
        }
        return d;
    }

    /**
     * Stops the station on air, at once, or if a new station is being prepared, the station that
     * ends up on air as soon as that is done; no reload begins afterwards. Safe to call from any
     * thread and any number of times; returns when the stop it started is done (at once if it only
     * recorded it).
     */
    public void requestStop() {
        Station s;
        Phase during;
        synchronized (state) {
            stopRequested = true;
            state.notifyAll();
            during = phase;
            s = current;
        }
        if (during == Phase.PREPARING) {
            log.info(
                    "stopping once the new station of {} is on air (it is being prepared)",
                    script.getFileName());
            return;
        }
        if (during == Phase.LOADING && s != null) {
            log.info(
                    "stopping during the reload of {}: the running station stops, the new script goes no further",
                    script.getFileName());
        }
        if (s != null) s.stop();
    }

    /**
     * Nothing will replace the station on air (if any): no start or reload, or one that will give
     * up.
     */
    private boolean settled() {
        return phase == Phase.IDLE || phase == Phase.LOADING && stopRequested;
    }

    /**
     * Waits until the station stopped for good: the one on air stopped and no start or reload is
     * under way to replace it (true at once if none was started, also while a script that a stop
     * made moot still compiles). False if {@code timeout} passed first.
     */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Station s;
            synchronized (state) {
                while (!settled()) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) return false;
                    TimeUnit.NANOSECONDS.timedWait(state, left);
                }
                s = current;
            }
            if (s == null) return true;
            if (!s.awaitStopped(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))))
                return false;
            synchronized (state) {
                if (settled() && current == s) return true;
            }
        }
    }

    /** Stops the station on air (see {@link #requestStop}) and waits up to 30 s for it. */
    public void stop() throws InterruptedException {
        requestStop();
        awaitStopped(Duration.ofSeconds(30));
    }
}
