package org.groovecast.core;

import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.LIST;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.SOURCES;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.api.Arguments;
import org.groovecast.api.Condition;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.pf4j.Extension;

/** Operators that play one of several sources at a time. */
@Extension
public final class SelectionOperators implements OperatorProvider {
    private static final String REPLAY =
            "when switching to a source, send its last metadata again unless it brings its own";
    private static final String TRANSITIONS =
            "per source, { from, to -> source } played when switching to it from another";
    private static final String TRANSITION_LENGTH = "seconds a transition plays at most";

    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("fallback")
                        .doc("Plays the first ready source, in order of preference.")
                        .named("trackSensitive", BOOLEAN, true, "switch only at track boundaries")
                        .named("onSelect", FUNCTION, null, "called with each newly selected source")
                        .calls("the selected source")
                        .named(
                                "onLeave",
                                FUNCTION,
                                null,
                                "called with the selected source when its selection ends")
                        .calls("the source whose selection ends")
                        .named("replayMetadata", BOOLEAN, true, REPLAY)
                        .named("transitions", LIST, List.of(), TRANSITIONS)
                        .named("transitionLength", NUMBER, 5.0, TRANSITION_LENGTH)
                        .positional("sources", SOURCES, "sources, preferred first")
                        .create(
                                a -> {
                                    List<Source> s = a.sources("sources");
                                    return new Fallback(
                                            s,
                                            a.bool("trackSensitive"),
                                            a.function("onSelect"),
                                            a.function("onLeave"),
                                            a.bool("replayMetadata"),
                                            Transitions.of(a, s.size()));
                                }),
                OperatorSpec.named("switchOn")
                        .doc(
                                "Plays the first source whose predicate holds: switchOn([[time.between('22h', '6h'), night], "
                                        + "[{ -> cond }, s], [true, day]]).")
                        .named("trackSensitive", BOOLEAN, true, "switch only at track boundaries")
                        .named("onSelect", FUNCTION, null, "called with each newly selected source")
                        .calls("the selected source")
                        .named(
                                "onLeave",
                                FUNCTION,
                                null,
                                "called with the selected source when its selection ends")
                        .calls("the source whose selection ends")
                        .named("replayMetadata", BOOLEAN, true, REPLAY)
                        .named("transitions", LIST, List.of(), TRANSITIONS)
                        .named("transitionLength", NUMBER, 5.0, TRANSITION_LENGTH)
                        .positional(
                                "cases",
                                LIST,
                                "[predicate, source] pairs; a predicate is a condition, a function or a boolean")
                        .create(SelectionOperators::switchOn),
                OperatorSpec.named("rotate")
                        .doc("Plays weights[i] tracks of each source in turn.")
                        .named(
                                "weights",
                                LIST,
                                List.of(),
                                "tracks per turn for each source, 1 each by default")
                        .named("onSelect", FUNCTION, null, "called with each newly selected source")
                        .calls("the selected source")
                        .named(
                                "onLeave",
                                FUNCTION,
                                null,
                                "called with the selected source when its selection ends")
                        .calls("the source whose selection ends")
                        .positional("sources", SOURCES, "sources to rotate")
                        .create(
                                a -> {
                                    List<Source> s = a.sources("sources");
                                    return new Rotate(
                                            s,
                                            Weights.integers(a, s.size()),
                                            a.function("onSelect"),
                                            a.function("onLeave"));
                                }),
                OperatorSpec.named("random")
                        .doc(
                                "Picks a source at random for each track, in proportion to its weight.")
                        .named("weights", LIST, List.of(), "relative weights, equal by default")
                        .named("onSelect", FUNCTION, null, "called with each newly selected source")
                        .calls("the selected source")
                        .named(
                                "onLeave",
                                FUNCTION,
                                null,
                                "called with the selected source when its selection ends")
                        .calls("the source whose selection ends")
                        .positional("sources", SOURCES, "sources to pick from")
                        .create(
                                a -> {
                                    List<Source> s = a.sources("sources");
                                    return new RandomPick(
                                            s,
                                            Weights.integers(a, s.size()),
                                            a.function("onSelect"),
                                            a.function("onLeave"));
                                }),
                OperatorSpec.named("sequence")
                        .doc("Plays one track of each source, then stays on the last.")
                        .positional("sources", SOURCES, "sources in order")
                        .create(a -> new Sequence(a.sources("sources"))),
                OperatorSpec.named("mksafe")
                        .doc("Makes a source infallible by filling its gaps with silence.")
                        .positional("source", SOURCE, "the fallible source")
                        .create(
                                a ->
                                        new Fallback(
                                                List.of(a.source("source"), new Blank(0)),
                                                false,
                                                null,
                                                null,
                                                true,
                                                Transitions.NONE)),
                OperatorSpec.named("once")
                        .doc("Plays the first track of a source, then nothing.")
                        .positional("source", SOURCE, "the source")
                        .create(a -> new Once(a.source("source"))));
    }

    private static Source switchOn(Arguments a) {
        List<Source> sources = new ArrayList<>();
        List<Condition> predicates = new ArrayList<>();
        for (Object c : a.list("cases")) {
            if (!(c instanceof List<?> pair)
                    || pair.size() != 2
                    || !(pair.get(1) instanceof Source s)) {
                throw new ScriptException("switchOn() expects [predicate, source] pairs, got " + c);
            }
            predicates.add(predicate(pair.getFirst()));
            sources.add(s);
        }
        if (sources.isEmpty())
            throw new ScriptException("switchOn() needs at least one [predicate, source] pair");
        return new SwitchOn(
                sources,
                predicates,
                a.bool("trackSensitive"),
                a.function("onSelect"),
                a.function("onLeave"),
                a.bool("replayMetadata"),
                Transitions.of(a, sources.size()));
    }

    private static Condition predicate(Object p) {
        if (p instanceof Condition c) return c;
        if (p instanceof UserFunction f) return SwitchOn.of(f);
        if (p instanceof Boolean b) return (context, since) -> b;
        throw new ScriptException(
                "switchOn(): a predicate is a condition (time.between(...)), a function or a boolean, got "
                        + p);
    }
}
