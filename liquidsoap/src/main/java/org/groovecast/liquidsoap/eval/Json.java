package org.groovecast.liquidsoap.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as Liquidsoap reads and writes it. Parsed, an object is a record (unit with a field per
 * key), an array a list, numbers are integers or floats as written; {@code json5} also takes
 * comments, single quotes, trailing commas, unquoted keys and {@code Infinity}/{@code NaN}.
 * Written, records and json objects are objects, lists and tuples arrays, a value's fields are left
 * out of all but records; pretty output puts a value on one line when it fits in 80 columns, else
 * one entry a line, indented by two.
 */
public final class Json {
    private Json() {}

    /**
     * A JSON object made field by field ({@code json()}, {@code json.object()}), its keys listed in
     * Liquidsoap's order ({@link HashtblOrder}).
     */
    public static final class ObjectBuilder implements HasFields {
        private final Map<String, Object> values = new java.util.HashMap<>();
        private final HashtblOrder order = new HashtblOrder();

        public synchronized Map<String, Object> entries() {
            Map<String, Object> out = new LinkedHashMap<>();
            for (String k : order.keys()) out.put(k, values.get(k));
            return out;
        }

        private synchronized void add(String key, Object value) {
            values.put(key, value);
            order.add(key);
        }

        private synchronized void remove(String key) {
            values.remove(key);
            order.remove(key);
        }

        @Override
        public Object field(String name) {
            return switch (name) {
                case "add" ->
                        Builtin.of(
                                "json.add",
                                List.of(Parameter.positional(), Parameter.positional()),
                                a -> {
                                    add(a.string(0), a.get(1));
                                    return Tuple.UNIT;
                                });
                case "remove" ->
                        Builtin.of(
                                "json.remove",
                                List.of(Parameter.positional()),
                                a -> {
                                    remove(a.string(0));
                                    return Tuple.UNIT;
                                });
                default -> Env.MISSING;
            };
        }

        @Override
        public java.util.Set<String> fieldNames() {
            return java.util.Set.of("add", "remove");
        }

        @Override
        public String toString() {
            return stringify(this, true, false);
        }
    }

    // ---- parsing

    public static Object parse(String text, boolean json5) {
        Reader r = new Reader(text, json5);
        r.space();
        Object v = r.value(0);
        r.space();
        if (r.pos < text.length()) throw r.error("unexpected text after the value");
        return v;
    }

    private static final class Reader {
        private final String s;
        private final boolean json5;
        private int pos;

        Reader(String s, boolean json5) {
            this.s = s;
            this.json5 = json5;
        }

        LiqError error(String what) {
            return Errors.of("json", "Parsing error: " + what + " at character " + pos);
        }

        void space() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') pos++;
                else if (json5 && s.startsWith("//", pos)) {
                    while (pos < s.length() && s.charAt(pos) != '\n') pos++;
                } else if (json5 && s.startsWith("/*", pos)) {
                    int end = s.indexOf("*/", pos + 2);
                    pos = end < 0 ? s.length() : end + 2;
                } else return;
            }
        }

        Object value(int depth) {
            if (depth > 1000) throw error("nested too deep");
            if (pos >= s.length()) throw error("unexpected end of input");
            char c = s.charAt(pos);
            switch (c) {
                case '{' -> {
                    pos++;
                    Map<String, Object> fields = new LinkedHashMap<>();
                    space();
                    if (peek('}')) return Rec.record(fields);
                    while (true) {
                        space();
                        if (json5 && peek('}')) return Rec.record(fields);
                        String key = key();
                        space();
                        expect(':');
                        space();
                        fields.put(key, value(depth + 1));
                        space();
                        if (peek('}')) return Rec.record(fields);
                        expect(',');
                    }
                }
                case '[' -> {
                    pos++;
                    List<Object> items = new ArrayList<>();
                    space();
                    if (peek(']')) return Collections.unmodifiableList(items);
                    while (true) {
                        space();
                        if (json5 && peek(']')) return Collections.unmodifiableList(items);
                        items.add(value(depth + 1));
                        space();
                        if (peek(']')) return Collections.unmodifiableList(items);
                        expect(',');
                    }
                }
                case '"' -> {
                    return string('"');
                }
                case '\'' -> {
                    if (!json5) throw error("unexpected '");
                    return string('\'');
                }
                default -> {
                    if (s.startsWith("true", pos)) {
                        pos += 4;
                        return true;
                    }
                    if (s.startsWith("false", pos)) {
                        pos += 5;
                        return false;
                    }
                    if (s.startsWith("null", pos)) {
                        pos += 4;
                        return null;
                    }
                    return number();
                }
            }
        }

        private boolean peek(char c) {
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!peek(c)) throw error("expected " + c);
        }

        private String key() {
            if (pos < s.length() && (s.charAt(pos) == '"' || json5 && s.charAt(pos) == '\'')) {
                return string(s.charAt(pos));
            }
            if (!json5) throw error("expected a key");
            int start = pos;
            while (pos < s.length()
                    && (Character.isLetterOrDigit(s.charAt(pos))
                            || s.charAt(pos) == '_'
                            || s.charAt(pos) == '$')) pos++;
            if (start == pos) throw error("expected a key");
            return s.substring(start, pos);
        }

        private String string(char quote) {
            pos++;
            StringBuilder out = new StringBuilder();
            while (true) {
                if (pos >= s.length()) throw error("unterminated string");
                char c = s.charAt(pos++);
                if (c == quote) return out.toString();
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (pos >= s.length()) throw error("unterminated string");
                char e = s.charAt(pos++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) throw error("bad \\u escape");
                        out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> out.append(e);
                }
            }
        }

        private Object number() {
            int start = pos;
            if (json5 && s.startsWith("Infinity", pos)) {
                pos += 8;
                return Double.POSITIVE_INFINITY;
            }
            if (json5 && s.startsWith("-Infinity", pos)) {
                pos += 9;
                return Double.NEGATIVE_INFINITY;
            }
            if (json5 && s.startsWith("NaN", pos)) {
                pos += 3;
                return Double.NaN;
            }
            boolean floating = false;
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c >= '0' && c <= '9' || c == '-' || c == '+') pos++;
                else if (c == '.' || c == 'e' || c == 'E') {
                    floating = true;
                    pos++;
                } else break;
            }
            String t = s.substring(start, pos);
            if (t.isEmpty()) throw error("unexpected " + s.charAt(pos));
            try {
                if (!floating) return Long.parseLong(t);
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                try {
                    return Double.parseDouble(t);
                } catch (NumberFormatException f) {
                    throw error("bad number " + t);
                }
            }
        }
    }

    // ---- writing

    /** A value as JSON text; raises {@code json} for what JSON cannot hold. */
    public static String stringify(Object v, boolean pretty, boolean json5) {
        Node n = node(v, json5, 0);
        StringBuilder out = new StringBuilder();
        if (pretty) n.pretty(out, 0);
        else n.compact(out);
        return out.toString();
    }

    /** A JSON value ready to print: a scalar's text, or an object's or array's entries. */
    private record Node(String scalar, List<String> keys, List<Node> items, boolean object) {
        int inlineLength() {
            if (scalar != null) return scalar.length();
            int n = 4;
            for (int i = 0; i < items.size(); i++) {
                if (object) n += keys.get(i).length() + 2;
                n += items.get(i).inlineLength() + 2;
            }
            return n;
        }

        void compact(StringBuilder out) {
            if (scalar != null) {
                out.append(scalar);
                return;
            }
            out.append(object ? '{' : '[');
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) out.append(',');
                if (object) out.append(keys.get(i)).append(':');
                items.get(i).compact(out);
            }
            out.append(object ? '}' : ']');
        }

        void inline(StringBuilder out) {
            if (scalar != null) {
                out.append(scalar);
                return;
            }
            if (items.isEmpty()) {
                out.append(object ? "{}" : "[]");
                return;
            }
            out.append(object ? "{ " : "[ ");
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) out.append(", ");
                if (object) out.append(keys.get(i)).append(": ");
                items.get(i).inline(out);
            }
            out.append(object ? " }" : " ]");
        }

        void pretty(StringBuilder out, int indent) {
            if (scalar != null || indent + inlineLength() <= 80) {
                inline(out);
                return;
            }
            out.append(object ? "{" : "[");
            for (int i = 0; i < items.size(); i++) {
                out.append(i == 0 ? "\n" : ",\n");
                out.append(" ".repeat(indent + 2));
                if (object) out.append(keys.get(i)).append(": ");
                items.get(i).pretty(out, indent + 2);
            }
            out.append('\n').append(" ".repeat(indent)).append(object ? "}" : "]");
        }
    }

    private static Node scalar(String text) {
        return new Node(text, null, null, false);
    }

    private static Node node(Object v, boolean json5, int depth) {
        if (depth > 1000) throw Errors.of("json", "value nested too deep for JSON");
        Object b = Values.base(v);
        if (v instanceof Rec r && Values.isUnit(r)) {
            return object(r.fields(), json5, depth);
        }
        return switch (b) {
            case null -> scalar("null");
            case String s -> scalar(quote(s));
            case Long l -> scalar(l.toString());
            case Double d -> {
                if (d.isNaN() || d.isInfinite()) {
                    if (!json5) {
                        throw Errors.of(
                                "json",
                                "Float "
                                        + Show.floatText(d)
                                        + " cannot be represented in JSON (use json5=true)");
                    }
                    yield scalar(d.isNaN() ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
                }
                yield scalar(Show.floatText(d));
            }
            case Boolean x -> scalar(x.toString());
            case ObjectBuilder o -> object(o.entries(), json5, depth);
            case Tuple t -> {
                List<Node> items = new ArrayList<>();
                for (int i = 0; i < t.size(); i++) items.add(node(t.get(i), json5, depth + 1));
                yield new Node(null, null, items, false);
            }
            case List<?> l -> {
                List<Node> items = new ArrayList<>();
                for (Object x : l) items.add(node(x, json5, depth + 1));
                yield new Node(null, null, items, false);
            }
            case Map<?, ?> m -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                m.forEach((k, x) -> fields.put(String.valueOf(k), x));
                yield object(fields, json5, depth);
            }
            default -> scalar(quote(Show.text(b)));
        };
    }

    private static Node object(Map<String, Object> fields, boolean json5, int depth) {
        List<String> keys = new ArrayList<>();
        List<Node> items = new ArrayList<>();
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            keys.add(quote(e.getKey()));
            items.add(node(e.getValue(), json5, depth + 1));
        }
        return new Node(null, keys, items, true);
    }

    /**
     * A JSON string literal: control characters and non-characters escaped, and U+FFFD, which
     * stands here for the bytes of a string that were no UTF-8 (Liquidsoap writes those {@code
     * \\uFFFD}; the JSON reads back the same).
     */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == 0xFFFD)
                        out.append(String.format("\\u%04X", (int) c));
                    else out.append(c);
                }
            }
        }
        return out.append('"').toString();
    }
}
