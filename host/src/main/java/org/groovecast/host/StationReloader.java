package org.groovecast.host;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
    private final ScriptFunctions functions;
    private final Map<String, String> settings;
    private volatile Station current;
    private volatile boolean reloading;

    public StationReloader(Path script, ScriptFunctions functions, Map<String, String> settings) {
        this.script = script;
        this.functions = functions;
        this.settings = settings;
    }

    /** Loads and starts the first station; throws its script errors. */
    public synchronized Station start() {
        Station s = Station.load(script, functions, settings, Map.of());
        s.reloadHook(this::reload);
        s.start(null);
        current = s;
        return s;
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
            next = Station.load(script, functions, settings, Map.of(), old.network());
        } catch (ScriptError | ScriptErrors e) {
            old.network().abortLoad(); // back to what the running station declared
            log.error("reload of {} failed; the running station stays on air: {}", script.getFileName(), e.getMessage());
            return false;
        }
        next.reloadHook(this::reload);
        try {
            next.prepare(null); // outputs open and first tracks ready while the old station still plays
        } catch (RuntimeException e) {
            old.network().abortLoad();
            log.error("reload of {}: the new station cannot start ({}); the running station stays on air",
                    script.getFileName(), e.getMessage());
            return false;
        }
        old.handOverNetwork();
        int stopped = old.graph().outputs().size();
        List<String> carried = new java.util.ArrayList<>();
        old.stop(() -> carry(old, next, carried));
        next.go();
        current = next;
        List<String> kept = next.network().lastKept();
        log.info("reload of {} in {} ms: kept mounts {} with their listeners, carried sources {}; stopped {} output(s), "
                        + "started {}", script.getFileName(), (System.nanoTime() - t0) / 1_000_000, kept, carried, stopped,
                next.graph().outputs().size());
        return true;
    }

    /** Named sources of the same name and kind take over the old ones' state (a playing track, a queue). */
    private static void carry(Station old, Station next, List<String> carried) {
        Map<String, org.groovecast.api.Source> before = new java.util.HashMap<>();
        for (org.groovecast.api.Source s : old.graph().sources()) {
            if (s.isNamed()) before.putIfAbsent(s.id() + "\u0000" + s.kind(), s);
        }
        for (org.groovecast.api.Source s : next.graph().sources()) {
            org.groovecast.api.Source previous = s.isNamed() ? before.remove(s.id() + "\u0000" + s.kind()) : null;
            if (previous != null) {
                s.takeOver(previous);
                carried.add(s.id());
            }
        }
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
