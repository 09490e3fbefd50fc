package org.groovecast.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.groovecast.api.Arguments;
import org.groovecast.api.CallbackScope;
import org.groovecast.api.Frame;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code transitions: [f1, f2, ...]} of a switch: for each input, the script's {@code { from,
 * to -> source }} called when the switch moves to that input from another one, and the longest a
 * transition may play ({@code transitionLength}, seconds). Builds each {@link SwitchTransition}; a
 * function that fails or returns no source gives a plain switch, logged once per switch.
 */
final class Transitions {
    private static final Logger log = LoggerFactory.getLogger(Transitions.class);
    static final Transitions NONE = new Transitions(List.of(), 0);

    /** What a transition function answers where it fails. */
    private static final Object FAILED = new Object();

    private final List<UserFunction> functions;
    private final double seconds;
    private boolean reported;

    private Transitions(List<UserFunction> functions, double seconds) {
        this.functions = functions;
        this.seconds = seconds;
    }

    /**
     * Reads {@code transitions:} and {@code transitionLength:}; {@code null} entries mean no
     * transition for that input.
     */
    static Transitions of(Arguments a, int sources) {
        List<?> given = a.list("transitions");
        double length = a.number("transitionLength");
        if (!(length >= 0) || length > 60) {
            throw new ScriptException(
                    a.operator()
                            + "(): transitionLength must be between 0 and 60 seconds, got "
                            + length);
        }
        if (given == null || given.isEmpty()) return NONE;
        if (given.size() > sources) {
            throw new ScriptException(
                    a.operator()
                            + "(): "
                            + given.size()
                            + " transitions for "
                            + sources
                            + " sources");
        }
        List<UserFunction> out = new ArrayList<>(sources);
        for (int i = 0; i < given.size(); i++) {
            Object f = given.get(i);
            if (f != null && !(f instanceof UserFunction)) {
                throw new ScriptException(
                        a.operator()
                                + "(): transitions["
                                + i
                                + "] must be a function { from, to -> source }"
                                + " or null, got "
                                + f);
            }
            out.add((UserFunction) f);
        }
        while (out.size() < sources) out.add(null);
        return new Transitions(Collections.unmodifiableList(out), length);
    }

    /**
     * The transition into input {@code index} from {@code from}, or null for a plain switch: calls
     * the script's function with the two ends and prepares what it returned. What the call
     * registers on the switch's graph or on the two ends is released when the transition ends.
     *
     * @param station the switch's graph, driven by the clock: the transition ticks only what it
     *     adds
     * @param cut whether {@code from} is left in the middle of a track
     */
    SwitchTransition begin(
            Source owner,
            int index,
            Source from,
            Source to,
            boolean cut,
            ArrivingSource.Pull pull,
            Set<Source> station,
            Frame chunk) {
        UserFunction f = index < functions.size() ? functions.get(index) : null;
        StreamContext context = owner.context();
        long samples = context.samples(seconds);
        if (f == null || samples <= 0) return null;
        LeavingSource leaving = new LeavingSource(from, samples);
        ArrivingSource arriving = new ArrivingSource(to, pull);
        List<Source> watched = new ArrayList<>(station);
        watched.add(leaving);
        watched.add(arriving);
        CallbackScope.Collected<Object> made;
        try {
            made =
                    CallbackScope.collect(
                            watched,
                            () -> {
                                Object value = f.callOr(FAILED, leaving, arriving);
                                // Preparing reaches the two ends through the graph; an end the
                                // transition leaves out is never pulled.
                                if (value instanceof Source s
                                        && s != arriving
                                        && s != to
                                        && s.context() == null) s.prepare(context);
                                return value;
                            });
        } catch (RuntimeException e) {
            report(owner, to, "failed: " + e);
            return null;
        }
        if (!(made.value() instanceof Source s)) {
            made.release();
            // a function that failed was logged by the host: the switch cuts
            if (made.value() != FAILED)
                report(owner, to, "returned " + made.value() + ", not a source");
            return null;
        }
        if (s == arriving || s == to) { // { from, to -> to }: no transition
            made.release();
            return null;
        }
        return new SwitchTransition(
                s,
                added(s, station),
                leaving,
                arriving,
                made.registration(),
                from,
                cut,
                samples,
                context.clock(),
                chunk);
    }

    /**
     * The nodes of the transition's graph that the clock does not drive: those outside the switch's
     * own graph.
     */
    private static Source[] added(Source s, Set<Source> station) {
        Set<Source> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Source> out = new ArrayList<>();
        walk(s, station, seen, out);
        return out.toArray(new Source[0]);
    }

    private static void walk(
            Source s, Collection<Source> station, Set<Source> seen, List<Source> out) {
        if (station.contains(s) || !seen.add(s)) return;
        out.add(s);
        for (Source in : s.inputs()) walk(in, station, seen, out);
    }

    private void report(Source owner, Source to, String what) {
        if (reported) return;
        reported = true;
        log.warn(
                "{}: the transition to {} {}; switching without it (logged once)",
                owner.id(),
                to.id(),
                what);
    }
}
