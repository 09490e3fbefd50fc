package org.groovecast.liquidsoap.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * {@code let json.parse (x : T) = s}: parsed JSON read as the type written. A nullable type takes
 * null for what does not fit; a missing field of a nullable or optional type is null; extra keys
 * are ignored; anything else that does not fit raises {@code json}, naming the type.
 */
final class JsonDecoding {
    private JsonDecoding() {}

    /**
     * Thrown inside, turned into one {@code json} error: {@code part} is what failed, as Liquidsoap
     * writes it ({@code {nested: {tuple: (string,_,_), _}, _}}: the field, element or value that
     * did not fit, the rest left out), null where the value's shape is not the type's at all (the
     * whole type is named then).
     */
    private static final class Mismatch extends RuntimeException {
        final String part;

        Mismatch(String part) {
            super(null, null, false, false);
            this.part = part;
        }
    }

    static Object decode(Object json, TypeAnnotation type) {
        try {
            return read(json, type);
        } catch (Mismatch m) {
            throw Errors.of(
                    "json",
                    "Parsing error: json value cannot be parsed as type "
                            + (m.part != null ? m.part : show(type)));
        }
    }

    /** {@code inner}'s failure, within what {@code around} makes of its part. */
    private static Mismatch within(
            Mismatch inner, java.util.function.UnaryOperator<String> around) {
        return inner.part == null ? inner : new Mismatch(around.apply(inner.part));
    }

    /** A JSON object: a record, or unit for {@code {}}. */
    private static boolean isObject(Object json) {
        return Values.isUnit(json);
    }

    private static Map<String, Object> fieldsOf(Object object) {
        return object instanceof Rec r ? r.fields() : Map.of();
    }

    private static Object read(Object json, TypeAnnotation type) {
        Object v = Values.base(json);
        return switch (type) {
            case TypeAnnotation.Named n -> named(json, v, n.name());
            case TypeAnnotation.Nullable n -> {
                if (v == null && !(json instanceof Rec)) yield null;
                try {
                    yield read(json, n.of());
                } catch (Mismatch m) {
                    yield null;
                }
            }
            case TypeAnnotation.ListOf l -> {
                if (!(v instanceof List<?> list)) throw new Mismatch(null);
                List<Object> out = new ArrayList<>();
                for (Object x : list) {
                    try {
                        out.add(read(x, l.of()));
                    } catch (Mismatch m) {
                        throw within(m, p -> "[" + p + "]");
                    }
                }
                yield Collections.unmodifiableList(out);
            }
            case TypeAnnotation.JsonObject o -> {
                if (!isObject(json)) throw new Mismatch(null);
                List<Object> out = new ArrayList<>();
                for (Map.Entry<String, Object> e : fieldsOf(json).entrySet()) {
                    try {
                        out.add(Tuple.of(e.getKey(), read(e.getValue(), o.of())));
                    } catch (Mismatch m) {
                        throw within(m, p -> "{" + e.getKey() + ": " + p + ", _}");
                    }
                }
                yield Collections.unmodifiableList(out);
            }
            case TypeAnnotation.Tuple t -> {
                int n = t.elements().size();
                if (!(v instanceof List<?> list)) throw new Mismatch(null);
                Object[] items = new Object[n];
                for (int i = 0; i < n; i++) {
                    // an element missing is no part that failed: the whole type is named
                    if (i >= list.size()) throw new Mismatch(null);
                    try {
                        items[i] = read(list.get(i), t.elements().get(i));
                    } catch (Mismatch m) {
                        int at = i;
                        throw within(
                                m,
                                p -> {
                                    List<String> parts = new ArrayList<>();
                                    for (int k = 0; k < n; k++) parts.add(k == at ? p : "_");
                                    return "(" + String.join(",", parts) + ")";
                                });
                    }
                }
                yield Tuple.of(items);
            }
            case TypeAnnotation.RecordType r -> record(json, r.methods());
            case TypeAnnotation.WithMethods w -> {
                Object base = read(json, w.base());
                Object fields = record(json, w.methods());
                yield Rec.with(base, Values.fields(fields));
            }
            default -> json;
        };
    }

    private static Object named(Object json, Object v, String name) {
        return switch (name) {
            case "int" -> {
                if (v instanceof Long) yield v;
                throw new Mismatch("int");
            }
            case "float" -> {
                if (v instanceof Number n) yield n.doubleValue();
                throw new Mismatch("float");
            }
            case "string" -> {
                if (v instanceof String) yield v;
                throw new Mismatch("string");
            }
            case "bool" -> {
                if (v instanceof Boolean) yield v;
                throw new Mismatch("bool");
            }
            case "unit" -> Tuple.UNIT;
            case "_" -> null; // ignored, as Liquidsoap's decoder leaves it
            default -> json;
        };
    }

    private static Object record(Object json, List<TypeAnnotation.Method> methods) {
        if (!isObject(json)) throw new Mismatch(null);
        Map<String, Object> given = fieldsOf(json);
        Map<String, Object> fields = new LinkedHashMap<>();
        for (TypeAnnotation.Method m : methods) {
            String key = m.jsonName() != null ? m.jsonName() : m.name();
            String label =
                    m.jsonName() != null ? Show.quote(m.jsonName()) + " as " + m.name() : m.name();
            boolean nullable = m.optional() || m.type() instanceof TypeAnnotation.Nullable;
            if (!given.containsKey(key)) {
                if (nullable) {
                    fields.put(m.name(), null);
                    continue;
                }
                throw new Mismatch("{" + label + ": _, _}");
            }
            try {
                fields.put(m.name(), read(given.get(key), m.type()));
            } catch (Mismatch e) {
                if (nullable) fields.put(m.name(), null);
                else throw within(e, p -> "{" + label + ": " + p + ", _}");
            }
        }
        return Rec.record(fields);
    }

    /** A type as a message writes it: {@code {x : int}}, {@code [int]}, {@code (string, int)}. */
    static String show(TypeAnnotation t) {
        return switch (t) {
            case TypeAnnotation.Named n -> n.name();
            case TypeAnnotation.Nullable n -> show(n.of()) + "?";
            case TypeAnnotation.ListOf l -> "[" + show(l.of()) + "]";
            case TypeAnnotation.JsonObject o -> "[(string * " + show(o.of()) + ")] as json.object";
            case TypeAnnotation.Tuple tu ->
                    "("
                            + String.join(
                                    ", ", tu.elements().stream().map(JsonDecoding::show).toList())
                            + ")";
            case TypeAnnotation.RecordType r ->
                    "{"
                            + String.join(
                                    ", ",
                                    r.methods().stream()
                                            .map(
                                                    m ->
                                                            m.name()
                                                                    + (m.optional() ? "?" : "")
                                                                    + " : "
                                                                    + show(m.type()))
                                            .toList())
                            + "}";
            default -> "_";
        };
    }
}
