package org.groovecast.host;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reload's hand-over from the station on air to the one its script now describes, its steps in
 * the order {@link #run} takes them (docs/decisions/0002-reload-hand-over.md gives the sequence and
 * the measurements behind it). Until the old station's clocks stop, any failure leaves it on air as
 * it was; from there on the new station is the one on air.
 */
final class ReloadHandOver {
    private static final Logger log = LoggerFactory.getLogger(StationReloader.class);

    /**
     * What the new station's encoders hold back before their first bytes (MP3: about two frames):
     * produced at once when its clocks start, so that the listener's buffer refills before it runs
     * dry.
     */
    static final long HEAD_START_NANOS = 60_000_000;

    /** How the reloader makes the new station: compiled and built on the old one's sockets. */
    interface Loader {
        Station load(Station old) throws ScriptError, ScriptErrors;
    }

    private final Station old;
    private final Reloads reloads;
    private final String name;
    private Station next;
    private Succession outputs;
    private final List<String> carried = new ArrayList<>();

    ReloadHandOver(Station old, Reloads reloads, String name) {
        this.old = old;
        this.reloads = reloads;
        this.name = name;
    }

    /**
     * Hands the station over; returns the new station, now on air, or null when the old one stays
     * (its script failed, it cannot start, or {@code stillWanted} says a stop came meanwhile).
     */
    Station run(Loader loader, BooleanSupplier stillWanted, BooleanSupplier reloadHook) {
        if (!loadBesideTheOld(loader)) return null;
        if (!stillWanted.getAsBoolean()) {
            abort(" abandoned: the station is stopping", false);
            return null;
        }
        next.reloadHook(reloadHook);
        next.follows(old);
        next.reloads(reloads);
        if (!prepare()) return null;
        if (!old.beginStop(true)) {
            // It stopped by itself meanwhile (its clocks ended): nothing on air to take over from.
            next.stop();
            log.info("reload of {} abandoned: the station stopped meanwhile", name);
            return null;
        }
        stopOldClocks();
        carry();
        old.stopOutputs();
        startNewClocks();
        releaseOld();
        return next;
    }

    /** The outputs the new station kept, started and stopped: the reload's report. */
    Succession outputs() {
        return outputs;
    }

    /** The sources that carried their state over. */
    List<String> carried() {
        return List.copyOf(carried);
    }

    // ---------------------------------------------------------------- the steps

    /**
     * 1. Compiled and built while the old station plays; the network records the new script's
     * declarations without serving them. A script error undoes the declarations: nothing else
     * changed.
     */
    private boolean loadBesideTheOld(Loader loader) {
        try {
            next = loader.load(old);
            return true;
        } catch (ScriptError | ScriptErrors e) {
            abort(" failed; the running station stays on air: " + e.getMessage(), true);
            return false;
        }
    }

    /**
     * 2. Outputs paired with their predecessors, opened, first tracks ready, new ports bound and
     * the declarations served, still while the old station plays. A port that cannot be bound or an
     * output that cannot open undoes this step: the running station keeps its sockets.
     */
    private boolean prepare() {
        outputs = Succession.of(old.graph().outputs(), next.graph().outputs());
        outputs.pairs().forEach((o, previous) -> ((Output) o).follow((Output) previous));
        try {
            next.prepare(null);
            return true;
        } catch (RuntimeException e) {
            abort(
                    ": the new station cannot start ("
                            + e.getMessage()
                            + "); the running station stays on air",
                    true);
            return false;
        }
    }

    /** 3. The old clocks stop at a frame boundary: from here to step 5 no audio is made. */
    private void stopOldClocks() {
        old.stopClocks();
    }

    /**
     * 4. Each new output takes over its predecessor's connections (listeners, the Icecast or RTMP
     * connection, the HLS playlist, a recording), each source of the same name or endpoint its
     * state (a playing track, a queue, a connected DJ), the status page its history. Then the old
     * outputs close, but for what was taken over.
     */
    private void carry() {
        try {
            if (next.status() != null) next.status().inherit(old.status(), outputs.pairs());
            outputs.pairs()
                    .forEach(
                            (o, previous) -> {
                                takeOver(o, previous);
                                // Held any longer, it would keep the old station's whole graph
                                // alive, and through its own predecessor every station before it.
                                ((Output) o).follow(null);
                            });
            List<Source> before = new ArrayList<>(old.graph().sources());
            before.removeIf(s -> s instanceof Output);
            List<Source> after = new ArrayList<>(next.graph().sources());
            after.removeIf(s -> s instanceof Output);
            Succession.of(before, after)
                    .pairs()
                    .forEach(
                            (s, previous) -> {
                                if (takeOver(s, previous)) carried.add(Succession.key(s));
                            });
        } catch (RuntimeException e) {
            log.warn("{}: {}", old.fileName(), e.toString());
        }
    }

    /** 5. The new clocks start, with a head start: the gap listeners could hear ends here. */
    private void startNewClocks() {
        next.go(HEAD_START_NANOS);
    }

    /**
     * 6. The old station lets go of the rest (its sockets now the new one's): metrics, encoders,
     * pools, its script's classes.
     */
    private void releaseOld() {
        old.release();
    }

    // ---------------------------------------------------------------- helpers

    /** Back to what the running station declared; {@code failure} counts as a failed reload. */
    private void abort(String why, boolean failure) {
        old.network().abortLoad();
        if (failure) {
            reloads.recordFailure();
            log.error("reload of {}{}", name, why);
        } else {
            log.info("reload of {}{}", name, why);
        }
    }

    /**
     * One source's takeover; a failure leaves that one to start afresh, not the reload half done.
     */
    private static boolean takeOver(Source s, Source previous) {
        try {
            s.takeOver(previous);
            return true;
        } catch (RuntimeException e) {
            log.warn(
                    "reload: {} could not take over from its predecessor; it starts afresh: {}",
                    Succession.key(s),
                    e.toString());
            return false;
        }
    }
}
