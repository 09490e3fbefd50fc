package org.groovecast.liquidsoap.engine;

import groovy.lang.Closure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.groovecast.api.Metadata;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Format;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * Values across the bridge. To the engine: integers and floats as numbers, tuples as lists, a list
 * of (string, value) pairs or a record where a map goes (metadata, headers) as a map, functions as
 * closures (see {@link LiqClosure}), formats as the engine's encoders, requests as their URI. From
 * the engine: metadata and maps as lists of pairs ({@code m["title"]}), numbers as integers or
 * floats, engine functions as functions; sources and other engine objects as they are.
 */
final class EngineValues {
    private final String file;
    private final Encoders encoders;

    /**
     * The script's interactive variables by name, for {@code interactive.save} and {@code load}.
     */
    private final Map<String, Fn> interactives = new java.util.concurrent.ConcurrentSkipListMap<>();

    EngineValues(String file, Encoders encoders) {
        this.file = file;
        this.encoders = encoders;
    }

    /** An engine answer as Liquidsoap sees it: an interactive variable becomes the script's. */
    Object interactive(Object answer) {
        if (!(answer instanceof org.groovecast.net.control.Interactive var)) return answer;
        InteractiveValues v = new InteractiveValues(var, interactives);
        interactives.put(var.name(), v);
        return v;
    }

    /** The interactive variables the script made, by name. */
    Map<String, Fn> interactives() {
        return new java.util.TreeMap<>(interactives);
    }

    /** {@code v} for a parameter of {@code type}. */
    Object toEngine(Object v, ValueType type) {
        Object b = Values.base(v);
        return switch (type) {
            case MAP -> map(v);
            case FUNCTION ->
                    b instanceof Fn f && !(b instanceof InteractiveValues)
                            ? closure(f)
                            : toEngine(v);
            case ENCODER -> b instanceof Format f ? encoders.encoder(f) : b;
            case NUMBER -> b instanceof Number n ? n.doubleValue() : toEngine(v);
            case STRING -> b instanceof LiqRequest r ? r.uri() : toEngine(v);
            default -> toEngine(v);
        };
    }

    /** {@code v} where the engine takes any value. */
    Object toEngine(Object v) {
        if (v instanceof Rec r && Values.isUnit(r)) return map(v);
        Object b = Values.base(v);
        return switch (b) {
            case null -> null;
            case Tuple t when t.size() == 0 -> null;
            case Tuple t -> {
                List<Object> out = new ArrayList<>(t.size());
                for (int i = 0; i < t.size(); i++) out.add(toEngine(t.get(i)));
                yield out;
            }
            case List<?> l -> {
                if (isPairs(l)) yield map(l);
                List<Object> out = new ArrayList<>(l.size());
                for (Object x : l) out.add(toEngine(x));
                yield out;
            }
            case InteractiveValues i -> i.variable();
            case Fn f -> closure(f);
            case Format f -> encoders.encoder(f);
            case LiqRequest r -> r.uri();
            default -> b;
        };
    }

    /** A list of pairs (or a record) as a map, keys as strings. */
    Map<String, Object> map(Object v) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (v instanceof Rec r && Values.isUnit(r)) {
            r.fields().forEach((k, x) -> out.put(k, toEngine(x)));
            return out;
        }
        Object b = Values.base(v);
        if (b instanceof List<?> l) {
            for (Object p : l) {
                if (Values.base(p) instanceof Tuple t && t.size() == 2) {
                    out.put(String.valueOf(Values.base(t.get(0))), toEngine(t.get(1)));
                }
            }
            return out;
        }
        if (b instanceof Map<?, ?> m) {
            m.forEach((k, x) -> out.put(String.valueOf(k), x));
            return out;
        }
        return out;
    }

    private static boolean isPairs(List<?> l) {
        if (l.isEmpty()) return false;
        for (Object x : l) {
            if (!(Values.base(x) instanceof Tuple t
                    && t.size() == 2
                    && Values.base(t.get(0)) instanceof String)) {
                return false;
            }
        }
        return true;
    }

    Closure<Object> closure(Fn f) {
        return new LiqClosure(f, this::toEngine, file);
    }

    /** The same, its answer turned by {@code result} before the engine sees it. */
    Closure<Object> closure(Fn f, Function<Object, Object> result) {
        return new LiqClosure(f, x -> toEngine(result.apply(x)), file);
    }

    /** A value the engine hands over, as a Liquidsoap value. */
    static Object toLiquidsoap(Object v) {
        return switch (v) {
            case null -> null;
            case Metadata m -> pairs(m);
            case Map<?, ?> m -> pairs(m);
            case Integer i -> (long) i;
            case Short s -> (long) s;
            case Float f -> (double) f;
            case String s -> s;
            case List<?> l -> {
                List<Object> out = new ArrayList<>(l.size());
                for (Object x : l) out.add(toLiquidsoap(x));
                yield Collections.unmodifiableList(out);
            }
            case Object[] a -> toLiquidsoap(List.of(a));
            case UserFunction f ->
                    Builtin.of(
                            "function",
                            List.of(Parameter.positional()),
                            a -> toLiquidsoap(f.call(a.get(0))));
            default -> v;
        };
    }

    /** An operator's answer: as {@link #toLiquidsoap}; engine objects stay what they are. */
    static Object toLiquidsoapResult(Object v) {
        return toLiquidsoap(v);
    }

    /** Metadata or a map as Liquidsoap's [(string * string)]. */
    static List<Object> pairs(Map<?, ?> m) {
        List<Object> out = new ArrayList<>(m.size());
        m.forEach((k, x) -> out.add(Tuple.of(String.valueOf(k), toLiquidsoap(x))));
        return Collections.unmodifiableList(out);
    }

    /** A list of pairs as metadata. */
    static Metadata metadata(Object v) {
        Map<String, Object> m = new LinkedHashMap<>();
        Object b = Values.base(v);
        if (b instanceof List<?> l) {
            for (Object p : l) {
                if (Values.base(p) instanceof Tuple t && t.size() == 2) {
                    m.put(
                            String.valueOf(Values.base(t.get(0))),
                            org.groovecast.liquidsoap.eval.Show.text(t.get(1)));
                }
            }
        }
        return Metadata.of(m);
    }
}
