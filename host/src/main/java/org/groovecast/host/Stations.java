package org.groovecast.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.groovecast.host.script.ScriptFunctions;

/**
 * The stations of one process ({@code groovecast run a.groovy b.liq}, {@code run --stations DIR}):
 * each script its own station, with its own clocks, reloads and failures (see {@link
 * SupervisedStation}), all of them on one {@link SharedRuntime}: one scheduler, one blocking pool,
 * one set of event loops, and the JIT's code and the plugins loaded once.
 */
public final class Stations implements AutoCloseable {
    /** Told of a script that failed to load or start (its located errors). */
    @FunctionalInterface
    public interface Failures {
        void report(Path script, RuntimeException e);
    }

    private final SharedRuntime runtime;
    private final Map<String, SupervisedStation> stations = new LinkedHashMap<>();

    /**
     * @param scripts one station each, named by its file name (two of one name are refused)
     * @param functions asked again at every (re)load, as by {@link StationReloader}
     * @param settings the {@code --set} settings, for every station and the shared pools
     */
    public Stations(
            List<Path> scripts,
            Supplier<ScriptFunctions> functions,
            Map<String, String> settings,
            Failures failures) {
        if (scripts.isEmpty()) throw new IllegalArgumentException("no station script given");
        this.runtime = new SharedRuntime(settings);
        for (Path script : scripts) {
            String name = script.getFileName().toString();
            SupervisedStation before = stations.get(name);
            if (before != null)
                throw new IllegalArgumentException(
                        "two stations named "
                                + name
                                + " ("
                                + before.reloader().script()
                                + " and "
                                + script
                                + "): a station is named by its file name");
            stations.put(
                    name,
                    new SupervisedStation(
                            name,
                            new StationReloader(script, functions, settings, runtime),
                            failures));
        }
        runtime.roster(this::roster);
        runtime.order(List.copyOf(stations.keySet()));
    }

    /** Each station's name, whether it is on air and its failed loads, for the status pages. */
    private List<Map<String, Object>> roster() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (SupervisedStation s : stations.values())
            list.add(Map.of("name", s.name(), "onAir", s.onAir(), "failures", s.failures()));
        return list;
    }

    /**
     * The station scripts of {@code dir}: each {@code *.groovy} and {@code *.liq} file in it (not
     * in its subfolders), in name order; throws when there is none.
     */
    public static List<Path> inDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) throw new IOException(dir + " is not a directory");
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> scripts =
                    files.filter(Files::isRegularFile)
                            .filter(
                                    p -> {
                                        String n = p.getFileName().toString();
                                        return n.endsWith(".groovy") || n.endsWith(".liq");
                                    })
                            .sorted()
                            .toList();
            if (scripts.isEmpty())
                throw new IOException(dir + " holds no station script (*.groovy, *.liq)");
            return scripts;
        }
    }

    /** Starts every station, each on its own thread: none waits for another to load. */
    public void start() {
        stations.values().forEach(SupervisedStation::start);
    }

    /** The stations' names (their files' names), in the order given. */
    public List<String> names() {
        return List.copyOf(stations.keySet());
    }

    /** The reloader of station {@code name}, for its watcher and tests; null if none. */
    public StationReloader reloader(String name) {
        SupervisedStation s = stations.get(name);
        return s != null ? s.reloader() : null;
    }

    public boolean onAir(String name) {
        SupervisedStation s = stations.get(name);
        return s != null && s.onAir();
    }

    /** Loads of station {@code name} that failed so far. */
    public int failures(String name) {
        SupervisedStation s = stations.get(name);
        return s != null ? s.failures() : 0;
    }

    /**
     * Reloads station {@code name} (a SIGHUP, its file changed): on air, a reload that keeps its
     * listeners; off air (its script failed), a new try now. Returns whether a new station is on
     * air.
     */
    public boolean reload(String name) {
        SupervisedStation s = stations.get(name);
        return s != null && s.poke();
    }

    /** Reloads every station (SIGHUP), side by side: a slow or failing one holds up none. */
    public void reloadAll() {
        List<Thread> threads = new ArrayList<>();
        for (SupervisedStation s : stations.values())
            threads.add(Thread.ofVirtual().name("reload-" + s.name()).start(s::poke));
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops every station, and every start or retry to come. */
    public void requestStop() {
        stations.values().forEach(SupervisedStation::requestStop);
    }

    /**
     * Waits until every station stopped for good (then the shared pools and loops close); false if
     * {@code timeout} passed first.
     */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (SupervisedStation s : stations.values()) {
            if (!s.awaitEnded(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))))
                return false;
        }
        runtime.close();
        return true;
    }

    /** Stops every station and waits up to 30 s for them. */
    @Override
    public void close() throws InterruptedException {
        requestStop();
        awaitStopped(Duration.ofSeconds(30));
    }
}
