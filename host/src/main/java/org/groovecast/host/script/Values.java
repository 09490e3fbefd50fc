package org.groovecast.host.script;

import groovy.lang.Closure;
import groovy.lang.GString;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Condition;
import org.groovecast.api.Encoder;
import org.groovecast.api.Metadata;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;

/** Script values as operators want them, and as messages describe them. */
final class Values {
    private Values() {}

    /** Whether {@code v} can be passed where {@code type} is expected. */
    static boolean fits(ValueType type, Object v) {
        return switch (type) {
            case SOURCE, OUTPUT -> v instanceof Source;
            case SOURCES ->
                    v instanceof Source
                            || v instanceof List<?> l
                                    && l.stream().allMatch(x -> x instanceof Source);
            case ENCODER -> v instanceof Encoder;
            case CLOCK -> v instanceof ClockInfo;
            case NUMBER -> v instanceof Number;
            case INTEGER -> v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue());
            case STRING -> v instanceof CharSequence;
            case BOOLEAN -> v instanceof Boolean;
            case LIST -> v instanceof List<?> || v instanceof Object[];
            case MAP -> v instanceof Map<?, ?>;
            case CONDITION -> v instanceof Condition;
            case FUNCTION -> v instanceof Closure<?> || v instanceof UserFunction;
            case NONE -> false;
            case ANY -> true;
        };
    }

    /**
     * Converts a fitting value: numbers to Double/Integer, GStrings to String, closures to
     * UserFunction, deeply.
     */
    static Object convert(ValueType type, Object v) {
        return switch (type) {
            case NUMBER -> ((Number) v).doubleValue();
            case INTEGER -> ((Number) v).intValue();
            case STRING -> v.toString();
            case FUNCTION -> function(v);
            default -> deep(v);
        };
    }

    static UserFunction function(Object v) {
        if (v instanceof UserFunction f) return f;
        return new ClosureFunction((Closure<?>) v);
    }

    /** Turns closures nested in lists and maps into functions, and GStrings into strings. */
    static Object deep(Object v) {
        if (v instanceof Closure<?> c) return function(c);
        if (v instanceof GString g) return g.toString();
        if (v instanceof Object[] a) v = List.of(a);
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) out.add(deep(x));
            return out;
        }
        if (v instanceof Map<?, ?> m && !(v instanceof Metadata)) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(deep(k), deep(x)));
            return out;
        }
        return v;
    }

    /**
     * {@code String "music"}, {@code Integer 3}, {@code source sine_2}: how an argument reads in a
     * message.
     */
    static String describe(Object v) {
        if (v == null) return "null";
        if (v instanceof Source s) return "source " + s.id();
        if (v instanceof CharSequence s) return "String \"" + s + "\"";
        if (v instanceof Closure<?>) return "a function";
        String text = String.valueOf(v);
        if (text.length() > 40) text = text.substring(0, 37) + "...";
        return v.getClass().getSimpleName() + " " + text;
    }
}
