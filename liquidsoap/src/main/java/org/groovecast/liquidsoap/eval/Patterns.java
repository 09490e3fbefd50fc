package org.groovecast.liquidsoap.eval;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * Binding a value to a pattern, {@code (a, b)}, {@code [x, ...rest, z]}, {@code {a, b?, c = p}},
 * {@code v.{a}}: a value that does not fit raises {@code not_found}, as in Liquidsoap.
 */
final class Patterns {
    private Patterns() {}

    static Env bind(Evaluator ev, Pattern p, Object v, Env env, Span at) {
        return switch (p) {
            case Pattern.Var var -> {
                String name = var.name();
                yield name.equals("_") ? env : env.bind(name, v);
            }
            case Pattern.Tuple t -> tuple(ev, t, v, env, at);
            case Pattern.ListPattern l -> list(ev, l, v, env, at);
            case Pattern.RecordPattern r -> record(ev, r, v, env, at);
        };
    }

    private static Env tuple(Evaluator ev, Pattern.Tuple t, Object v, Env env, Span at) {
        if (t.elements().isEmpty()) return env;
        Object b = Values.base(v);
        if (b instanceof List<?> list && list.size() >= t.elements().size()) {
            // an untyped json.parse gives arrays as lists: Liquidsoap would have typed it a tuple
            for (int i = 0; i < t.elements().size(); i++) {
                env = bind(ev, t.elements().get(i), list.get(i), env, at);
            }
            return env;
        }
        if (!(b instanceof Tuple tuple) || tuple.size() != t.elements().size()) {
            throw Errors.at(
                    at,
                    "not_found",
                    "cannot bind "
                            + Values.describe(v)
                            + " to a tuple of "
                            + t.elements().size()
                            + " elements");
        }
        for (int i = 0; i < tuple.size(); i++)
            env = bind(ev, t.elements().get(i), tuple.get(i), env, at);
        return env;
    }

    private static Env list(Evaluator ev, Pattern.ListPattern l, Object v, Env env, Span at) {
        Object b = Values.base(v);
        if (!(b instanceof List<?> list)) {
            throw Errors.at(
                    at, "not_found", "cannot bind " + Values.describe(v) + " to a list pattern");
        }
        int before = l.before().size();
        int after = l.after().size();
        if (list.size() < before + after) {
            throw Errors.at(
                    at,
                    "not_found",
                    "List value does not have enough elements to fit the extraction pattern!");
        }
        for (int i = 0; i < before; i++) env = bind(ev, l.before().get(i), list.get(i), env, at);
        if (l.spread() != null && !l.spread().name().equals("_")) {
            env = env.bind(l.spread().name(), nullSafe(list.subList(before, list.size() - after)));
        }
        for (int j = 0; j < after; j++) {
            env = bind(ev, l.after().get(j), list.get(list.size() - after + j), env, at);
        }
        return env;
    }

    private static List<Object> nullSafe(List<?> l) {
        return java.util.Collections.unmodifiableList(new java.util.ArrayList<Object>(l));
    }

    private static Env record(Evaluator ev, Pattern.RecordPattern r, Object v, Env env, Span at) {
        if (r.base() != null) env = bind(ev, r.base(), v, env, at);
        for (Pattern.FieldPattern f : r.fields()) {
            Object value = ev.field(v, f.name());
            if (value == Env.MISSING) {
                if (!f.nullable()) {
                    throw Errors.at(
                            at, "not_found", Values.describe(v) + " has no field " + f.name());
                }
                value = null;
            }
            env =
                    f.pattern() != null
                            ? bind(ev, f.pattern(), value, env, at)
                            : env.bind(f.name(), value);
        }
        if (r.spread() != null && !r.spread().name().equals("_")) {
            Map<String, Object> rest = new LinkedHashMap<>(Values.fields(v));
            for (Pattern.FieldPattern f : r.fields()) rest.remove(f.name());
            env = env.bind(r.spread().name(), Rec.with(Values.base(v), rest));
        }
        return env;
    }
}
