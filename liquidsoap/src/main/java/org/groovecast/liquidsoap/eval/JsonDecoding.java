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

    /** Thrown inside, turned into one {@code json} error naming the whole type. */
    private static final class Mismatch extends RuntimeException {
        Mismatch() {
            super(null, null, false, false);
        }
    }

    static Object decode(Object json, TypeAnnotation type) {
        try {
            return read(json, type);
        } catch (Mismatch m) {
            throw Errors.of(
                    "json", "Parsing error: json value cannot be parsed as type " + show(type));
        }
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
                if (!(v instanceof List<?> list)) throw new Mismatch();
                List<Object> out = new ArrayList<>();
                for (Object x : list) out.add(read(x, l.of()));
                yield Collections.unmodifiableList(out);
            }
            case TypeAnnotation.JsonObject o -> {
                // {} parses to unit with no field at all
                if (json instanceof Tuple t && t.size() == 0) yield List.of();
                if (!(json instanceof Rec r) || !Values.isUnit(r)) throw new Mismatch();
                List<Object> out = new ArrayList<>();
                for (Map.Entry<String, Object> e : r.fields().entrySet()) {
                    out.add(Tuple.of(e.getKey(), read(e.getValue(), o.of())));
                }
                yield Collections.unmodifiableList(out);
            }
            case TypeAnnotation.Tuple t -> {
                if (!(v instanceof List<?> list) || list.size() < t.elements().size()) {
                    throw new Mismatch();
                }
                Object[] items = new Object[t.elements().size()];
                for (int i = 0; i < items.length; i++)
                    items[i] = read(list.get(i), t.elements().get(i));
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
                throw new Mismatch();
            }
            case "float" -> {
                if (v instanceof Number n) yield n.doubleValue();
                throw new Mismatch();
            }
            case "string" -> {
                if (v instanceof String) yield v;
                throw new Mismatch();
            }
            case "bool" -> {
                if (v instanceof Boolean) yield v;
                throw new Mismatch();
            }
            case "unit" -> Tuple.UNIT;
            case "_" -> null; // ignored, as Liquidsoap's decoder leaves it
            default -> json;
        };
    }

    private static Object record(Object json, List<TypeAnnotation.Method> methods) {
        if (!(json instanceof Rec r) || !Values.isUnit(r)) throw new Mismatch();
        Map<String, Object> fields = new LinkedHashMap<>();
        for (TypeAnnotation.Method m : methods) {
            String key = m.jsonName() != null ? m.jsonName() : m.name();
            if (!r.fields().containsKey(key)) {
                if (m.optional() || m.type() instanceof TypeAnnotation.Nullable) {
                    fields.put(m.name(), null);
                    continue;
                }
                throw new Mismatch();
            }
            fields.put(m.name(), read(r.fields().get(key), m.type()));
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
