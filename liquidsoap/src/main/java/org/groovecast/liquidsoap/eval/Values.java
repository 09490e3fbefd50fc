package org.groovecast.liquidsoap.eval;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the evaluator and the library ask of any value: its base, truth, order, kind. */
public final class Values {
    private Values() {}

    /** The value without its fields. */
    public static Object base(Object v) {
        return v instanceof Rec r ? r.base() : v;
    }

    /** The fields of a value (none for most). */
    public static Map<String, Object> fields(Object v) {
        return v instanceof Rec r ? r.fields() : Map.of();
    }

    public static boolean isUnit(Object v) {
        return base(v) instanceof Tuple t && t.size() == 0;
    }

    /** Structural equality, as Liquidsoap's {@code ==}. */
    public static boolean equal(Object a, Object b) {
        return compare(a, b) == 0;
    }

    /**
     * Liquidsoap's order: numbers, strings, booleans by value; tuples and lists element by element;
     * records (unit with fields) on the fields they share, by name; functions by identity; null
     * before anything. Other values (sources, formats) by identity.
     */
    public static int compare(Object a, Object b) {
        if (isUnit(a) && isUnit(b)) {
            Map<String, Object> fa = new TreeMap<>(fields(a));
            Map<String, Object> fb = fields(b);
            for (Map.Entry<String, Object> e : fa.entrySet()) {
                if (!fb.containsKey(e.getKey())) continue;
                int c = compare(e.getValue(), fb.get(e.getKey()));
                if (c != 0) return c;
            }
            return 0;
        }
        Object x = base(a);
        Object y = base(b);
        if (x == null || y == null) return x == null ? (y == null ? 0 : -1) : 1;
        if (x instanceof Long i && y instanceof Long j) return Long.compare(i, j);
        if (x instanceof Number i && y instanceof Number j) {
            return Double.compare(i.doubleValue(), j.doubleValue());
        }
        if (x instanceof String s && y instanceof String t) return s.compareTo(t);
        if (x instanceof Boolean p && y instanceof Boolean q) return Boolean.compare(p, q);
        if (x instanceof Tuple t && y instanceof Tuple u) {
            int n = Math.min(t.size(), u.size());
            for (int i = 0; i < n; i++) {
                int c = compare(t.get(i), u.get(i));
                if (c != 0) return c;
            }
            return Integer.compare(t.size(), u.size());
        }
        if (x instanceof List<?> l && y instanceof List<?> m) {
            int n = Math.min(l.size(), m.size());
            for (int i = 0; i < n; i++) {
                int c = compare(l.get(i), m.get(i));
                if (c != 0) return c;
            }
            return Integer.compare(l.size(), m.size());
        }
        if (x instanceof ErrorValue e && y instanceof ErrorValue f) {
            int c = e.kind().compareTo(f.kind());
            return c != 0 ? c : e.message().compareTo(f.message());
        }
        if (x == y || x.equals(y)) return 0;
        if (x.getClass() == y.getClass() || x instanceof Fn && y instanceof Fn) {
            return Integer.compare(System.identityHashCode(x), System.identityHashCode(y));
        }
        throw Errors.invalid("cannot compare " + Show.value(a) + " and " + Show.value(b));
    }

    /** A condition's value: only booleans are. */
    public static boolean truth(Object v, org.groovecast.liquidsoap.syntax.Span at) {
        if (base(v) instanceof Boolean b) return b;
        throw Errors.at(at, "invalid", "expected a boolean, got " + describe(v));
    }

    /** How a message names a value's kind, with the value when short: {@code a string "x"}. */
    public static String describe(Object v) {
        Object b = base(v);
        String shown = Show.value(v);
        if (shown.length() > 40) shown = shown.substring(0, 37) + "...";
        String kind =
                switch (b) {
                    case null -> "null";
                    case Long l -> "an integer";
                    case Double d -> "a float";
                    case String s -> "a string";
                    case Boolean x -> "a boolean";
                    case Tuple t when t.size() == 0 -> v instanceof Rec ? "a record" : "unit";
                    case Tuple t -> "a tuple";
                    case List<?> l -> "a list";
                    case Fn f -> "a function";
                    case ErrorValue e -> "an error";
                    default -> kindOf(b);
                };
        if (b == null) return "null";
        return kind + " " + shown;
    }

    private static String kindOf(Object b) {
        String name = b.getClass().getSimpleName();
        if (name.isEmpty()) name = "value";
        String lower = name.substring(0, 1).toLowerCase() + name.substring(1);
        return "aeiou".indexOf(lower.charAt(0)) >= 0 ? "an " + lower : "a " + lower;
    }
}
