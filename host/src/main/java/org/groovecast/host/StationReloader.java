package org.groovecast.host;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.groovecast.host.script.ScriptFunctions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A station that can be reloaded from its script while it runs. A reload compiles and builds the
 * new script first; if that fails the running station stays on air and the error is logged with
 * its line. If it succeeds, the new station takes over the sockets (harbor mounts declared again
 * keep their listeners connected), the old one stops, the new one starts.
 */
public final class StationReloader {
    private static final Logger log = LoggerFactory.getLogger(StationReloader.class);

    private final Path script;
    private final java.util.function.Supplier<ScriptFunctions> functions;
    private final Map<String, String> settings;
    private volatile Station current;
    /** What the new station's encoders hold back before their first bytes (MP3: about two frames). */
    private static final long HEAD_START_NANOS = 60_000_000;
    private volatile boolean reloading;
    private volatile Report last;

    /**
     * What the last successful reload did: outputs kept with their connections, started, stopped
     * (each as kind and {@code id:} or endpoint), and the sources that carried their state over.
     */
    public record Report(long millis, List<String> kept, List<String> started, List<String> stopped, List<String> carried) {
    }

    public StationReloader(Path script, ScriptFunctions functions, Map<String, String> settings) {
        this(script, () -> functions, settings);
    }

    /** @param functions asked again at every reload (see {@link org.groovecast.host.plugin.PluginSet}) */
    public StationReloader(Path script, java.util.function.Supplier<ScriptFunctions> functions, Map<String, String> settings) {
        this.script = script;
        this.functions = functions;
        this.settings = settings;
    }

    /** Loads and starts the first station; throws its script errors. */
    public synchronized Station start() {
        Station s = Station.load(script, functions.get(), settings, Map.of());
        s.reloadHook(this::reload);
        s.start(null);
        current = s;
        return s;
    }

    /** The last successful reload's report, or null before one. */
    public Report lastReload() {
        return last;
    }

    public Station current() {
        return current;
    }

    /** True while a reload swaps stations (the old one stops before the new one starts). */
    public boolean isReloading() {
        return reloading;
    }

    /** Reloads the script; returns true if the new station is on air, false if the old one stays. */
    public synchronized boolean reload() {
        reloading = true;
        try {
            return swap();
        } finally {
            reloading = false;
        }
    }

    private boolean swap() {
        Station old = current;
        long t0 = System.nanoTime();
        Station next;
        try {
            next = Station.load(script, functions.get(), settings, Map.of(), old.network());
        } catch (ScriptError | ScriptErrors e) {
            old.network().abortLoad(); // back to what the running station declared
            log.error("reload of {} failed; the running station stays on air: {}", script.getFileName(), e.getMessage());
            return false;
        }
        next.reloadHook(this::reload);
        Succession outputs = Succession.of(old.graph().outputs(), next.graph().outputs());
        outputs.pairs().forEach((o, previous) -> ((Output) o).follow((Output) previous));
        try {
            next.prepare(null); // outputs open and first tracks ready while the old station still plays
        } catch (RuntimeException e) {
            old.network().abortLoad();
            log.error("reload of {}: the new station cannot start ({}); the running station stays on air",
                    script.getFileName(), e.getMessage());
            return false;
        }
        old.handOverNetwork();
        List<String> carried = new ArrayList<>();
        old.stop(() -> carry(old, next, outputs, carried), () -> next.go(HEAD_START_NANOS));
        current = next;
        List<String> kept = new ArrayList<>(describe(outputs.pairs().keySet()));
        for (String k : next.network().lastKept()) if (k.startsWith("rtmp ")) kept.add(k + " (publishers and players stay)");
        last = new Report((System.nanoTime() - t0) / 1_000_000, kept,
                describe(outputs.added()), describe(outputs.removed()), List.copyOf(carried));
        log.info("reload of {} in {} ms: kept {}; started {}; stopped {}; sources carried over {}",
                script.getFileName(), last.millis(), last.kept(), last.started(), last.stopped(), last.carried());
        return true;
    }

    /**
     * Runs between the old station's last frame and its outputs' closing: outputs hand their
     * connections to their successors, sources of the same name or endpoint their state (a
     * playing track, a queue, a connected DJ).
     */
    private static void carry(Station old, Station next, Succession outputs, List<String> carried) {
        outputs.pairs().forEach(StationReloader::takeOver);
        List<Source> before = new ArrayList<>(old.graph().sources());
        before.removeIf(s -> s instanceof Output);
        List<Source> after = new ArrayList<>(next.graph().sources());
        after.removeIf(s -> s instanceof Output);
        Succession.of(before, after).pairs().forEach((s, previous) -> {
            if (takeOver(s, previous)) carried.add(Succession.key(s));
        });
    }

    /** One source's takeover; a failure leaves that one to start afresh, not the reload half done. */
    private static boolean takeOver(Source s, Source previous) {
        try {
            s.takeOver(previous);
            return true;
        } catch (RuntimeException e) {
            log.warn("reload: {} could not take over from its predecessor; it starts afresh: {}", Succession.key(s), e.toString());
            return false;
        }
    }

    private static List<String> describe(java.util.Collection<? extends Source> outputs) {
        List<String> d = new ArrayList<>();
        for (Source o : outputs) {
            String key = Succession.key(o);
            d.add(key != null ? key : o.kind());
        }
        return d;
    }

    /** Stops the station on air; waits for it. */
    public void stop() throws InterruptedException {
        Station s = current;
        if (s != null) {
            s.stop();
            s.awaitStopped(Duration.ofSeconds(30));
        }
    }
}
