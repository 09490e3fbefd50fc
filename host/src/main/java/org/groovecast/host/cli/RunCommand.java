package org.groovecast.host.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.groovecast.host.Station;
import org.groovecast.host.StationReloader;
import org.groovecast.host.Stations;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.plugin.PluginSet;
import org.groovecast.host.service.ServiceState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code groovecast run SCRIPT}: runs a station until SIGINT or SIGTERM, then stops it cleanly. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description =
                "Run a station script until interrupted (SIGINT/SIGTERM stop it cleanly, exit 0).")
final class RunCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

    /**
     * How long a requested stop may take before the engine exits regardless (seconds; a system
     * property).
     */
    private static final Duration STOP_TIMEOUT =
            Duration.ofSeconds(Long.getLong("groovecast.stopTimeout", 20));

    @Mixin CommonOptions options;

    @Option(
            names = "--stop-after",
            paramLabel = "SECONDS",
            description =
                    "Stop each clock after this much stream time (offline rendering with --set clock.sync=none).")
    Double stopAfter;

    @Option(
            names = "--watch",
            description =
                    "Reload the script when its file, or a file it includes, changes (listeners stay connected).")
    boolean watch;

    @Option(
            names = "--stations",
            paramLabel = "DIR",
            description =
                    "Run each *.groovy and *.liq script of DIR as a station of its own, in this one process.")
    Path stationsDir;

    @Parameters(
            paramLabel = "SCRIPT",
            arity = "0..*",
            description =
                    "The station script; several run as stations of their own in this one process.")
    List<Path> scripts = new ArrayList<>();

    /** The one script of a single-station run. */
    private Path script;

    /** What SIGHUP runs once a reloadable station is on air. */
    private volatile Runnable reload;

    /** A SIGHUP not yet applied. */
    private final AtomicBoolean hangup = new AtomicBoolean();

    /** The service manager, told when the station is on air, reloaded, stopping (systemd). */
    private final ServiceState service = ServiceState.fromEnvironment();

    @Override
    public Integer call() throws InterruptedException {
        options.applyLogLevel();
        List<Path> all = new ArrayList<>(scripts);
        if (stationsDir != null) {
            try {
                all.addAll(Stations.inDirectory(stationsDir));
            } catch (IOException e) {
                System.err.println("--stations: " + e.getMessage());
                return 2;
            }
        }
        if (all.isEmpty()) {
            System.err.println("run: give a station script, several, or --stations DIR");
            return 2;
        }
        if (all.size() > 1 || stationsDir != null) return many(all);
        script = all.get(0);
        // First of all: a stop during startup (loading plugins, compiling) must not kill the JVM
        // half way.
        StopRequest stop = new StopRequest();
        Signals.handle("INT", stop::request);
        Signals.handle("TERM", stop::request);
        if (stopAfter == null) {
            Signals.handle(
                    "HUP",
                    () -> {
                        // Set before reading reload, and claimed with getAndSet on both sides: a
                        // SIGHUP that races the first start is applied once, never lost.
                        hangup.set(true);
                        Runnable r = reload;
                        if (r == null)
                            log.info("SIGHUP before the station is on air: it reloads once it is");
                        else if (hangup.getAndSet(false))
                            Thread.ofVirtual().name("reload").start(r);
                    });
            try (PluginSet plugins = new PluginSet(options.pluginsDir())) {
                return live(plugins, stop);
            } finally {
                service.close();
            }
        }
        try (OperatorPlugins plugins = OperatorPlugins.load(options.pluginsDir())) {
            Station station = StationLoader.load(script, plugins, options.settings());
            if (station == null) return 1;
            if (stop.isRequested()) return 0;
            try {
                station.start(Duration.ofMillis((long) (stopAfter * 1000)));
            } catch (RuntimeException e) {
                LoadFailure.print(script, e);
                return 1;
            }
            stop.attach(station::stop);
            return await(station::awaitStopped, stop);
        }
    }

    /**
     * Several stations in this process, each reloaded and retried on its own, until SIGINT or
     * SIGTERM; SIGHUP reloads every one.
     */
    private int many(List<Path> all) throws InterruptedException {
        if (stopAfter != null) {
            System.err.println(
                    "run: --stop-after renders one script; run the stations one at a time for it");
            return 2;
        }
        StopRequest stop = new StopRequest();
        Signals.handle("INT", stop::request);
        Signals.handle("TERM", stop::request);
        try (PluginSet plugins = new PluginSet(options.pluginsDir())) {
            Stations stations;
            try {
                stations =
                        new Stations(
                                all, plugins::functions, options.settings(), LoadFailure::print);
            } catch (IllegalArgumentException e) {
                System.err.println("run: " + e.getMessage());
                return 2;
            }
            stop.attach(
                    () -> {
                        service.stopping();
                        stations.requestStop();
                    });
            Signals.handle(
                    "HUP", () -> Thread.ofVirtual().name("reload").start(stations::reloadAll));
            List<ScriptWatcher> watchers = new ArrayList<>();
            if (watch) {
                for (String name : stations.names()) {
                    StationReloader r = stations.reloader(name);
                    ScriptWatcher w = ScriptWatcher.of(r.script(), () -> stations.reload(name));
                    if (w == null) continue;
                    r.onIncludedFile(w::follow);
                    watchers.add(w);
                }
            }
            stations.start();
            watchers.forEach(ScriptWatcher::start);
            if (service.managed())
                Thread.ofVirtual().name("ready").start(() -> readyOnceTried(stations));
            int code = await(stations::awaitStopped, stop);
            for (ScriptWatcher w : watchers) {
                try {
                    w.close();
                } catch (IOException e) {
                    // the process ends anyway
                }
            }
            return code;
        } finally {
            service.close();
        }
    }

    /**
     * Tells the service manager the process is ready once each station is on air or failed its
     * first start (a broken script is reported and retried; it must not hold up the others'
     * readiness), and starts the watchdog pings on the scheduler the stations share.
     */
    private void readyOnceTried(Stations stations) {
        List<String> names = stations.names();
        try {
            while (!names.stream().allMatch(n -> stations.onAir(n) || stations.failures(n) > 0))
                Thread.sleep(100);
        } catch (InterruptedException e) {
            return;
        }
        long onAir = names.stream().filter(stations::onAir).count();
        service.ready(onAir + " of " + names.size() + " stations on air");
        service.watch(
                () -> {
                    for (String n : names) {
                        Station s = stations.reloader(n).current();
                        if (s != null && s.taskScheduler() != null) return s.taskScheduler();
                    }
                    return null;
                });
    }

    /**
     * Until a signal: reloadable on SIGHUP, the control's reload command, and file changes with
     * --watch.
     */
    private int live(PluginSet plugins, StopRequest stop) throws InterruptedException {
        // Asked at every reload: plugins installed meanwhile take effect then.
        StationReloader reloader =
                new StationReloader(script, plugins::functions, options.settings());
        // Before the start: a stop while it runs is applied once the station is on air (or instead
        // of it).
        stop.attach(
                () -> {
                    service.stopping();
                    reloader.requestStop();
                });
        // Before the start too, so that it learns the files the script includes as they are read.
        ScriptWatcher watcher = watch ? ScriptWatcher.of(script, reloader::reload) : null;
        if (watcher != null) reloader.onIncludedFile(watcher::follow);
        try {
            if (startFirst(reloader, stop) == null) return 0;
        } catch (RuntimeException e) {
            LoadFailure.print(script, e);
            return 1;
        }
        String name = script.getFileName().toString();
        service.ready("on air: " + name);
        service.watch(
                () -> {
                    Station s = reloader.current();
                    return s != null ? s.taskScheduler() : null;
                });
        reload =
                () -> {
                    if (reloader.reload()) service.status("on air: " + name + ", reloaded");
                    else if (!stop.isRequested())
                        service.status(
                                "on air: " + name + "; the last reload failed (see the log)");
                };
        // The script may have been edited after the first start read it (a SIGHUP that came while
        // it started, or right after it logged its clocks): the station on air is the script's
        // latest only once this reload has run.
        if (hangup.getAndSet(false)) Thread.ofVirtual().name("reload").start(reload);
        if (watcher != null) watcher.start();
        // A reload replaces the station: this waits on whichever is on air, until one stops for
        // good.
        return await(reloader::awaitStopped, stop);
    }

    /**
     * Starts the first station on a thread of its own: a stop while the script still compiles
     * (nothing of the station is open then) ends the engine at once, without waiting for the
     * compile. Returns null when a stop came first; throws the script's errors.
     */
    private static Station startFirst(StationReloader reloader, StopRequest stop)
            throws InterruptedException {
        CompletableFuture<Station> first = new CompletableFuture<>();
        Thread.ofPlatform()
                .daemon()
                .name("start")
                .start(
                        () -> {
                            try {
                                first.complete(reloader.start());
                            } catch (Throwable e) {
                                first.completeExceptionally(e);
                            }
                        });
        while (true) {
            try {
                return first.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (stop.isRequested() && reloader.awaitStopped(Duration.ZERO)) return null;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) throw r;
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    /** Something that can be waited on until it stopped. */
    private interface Stoppable {
        boolean awaitStopped(Duration timeout) throws InterruptedException;
    }

    /**
     * Waits until {@code station} stopped: exit 0. Once a stop was requested, it has {@link
     * #STOP_TIMEOUT} to finish; past that the engine exits anyway, with 1, rather than outlive its
     * stop.
     */
    private static int await(Stoppable station, StopRequest stop) throws InterruptedException {
        long stopSeen = 0;
        while (!station.awaitStopped(Duration.ofMillis(200))) {
            if (!stop.isRequested()) continue;
            long now = System.nanoTime();
            if (stopSeen == 0) stopSeen = now;
            else if (now - stopSeen > STOP_TIMEOUT.toNanos()) {
                log.error(
                        "the station did not stop within {} s of the stop request; exiting anyway",
                        STOP_TIMEOUT.toSeconds());
                return 1;
            }
        }
        return 0;
    }
}
