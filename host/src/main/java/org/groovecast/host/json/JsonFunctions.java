package org.groovecast.host.json;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.STRING;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;

/**
 * {@code json.parse(text)} and {@code json.stringify(value, compact: false)}, with Jackson. Parsed
 * objects are ordered maps, arrays lists, numbers Integer, Long, BigInteger or Double. Only what
 * JSON can say is written: maps, lists, numbers, strings, booleans and null (NaN and infinities as
 * null, as Liquidsoap writes them); anything else is a script error naming it.
 */
public final class JsonFunctions {
    /** Deeper than this, a value to write is taken for one that contains itself. */
    private static final int MAX_DEPTH = 1000;

    private static final JsonMapper MAPPER =
            JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private JsonFunctions() {}

    public static List<OperatorSpec> specs() {
        return List.of(
                OperatorSpec.named("json.parse")
                        .doc(
                                "Parses JSON text into maps, lists, numbers, strings, booleans and null.")
                        .positional("text", STRING, "the JSON text")
                        .returns(ANY)
                        .create(a -> parse(a.string("text"))),
                OperatorSpec.named("json.stringify")
                        .doc(
                                "Writes a value (maps, lists, numbers, strings, booleans, null) as JSON text; "
                                        + "pretty-printed unless compact: true.")
                        .positional("value", ANY, "what to write")
                        .named("compact", BOOLEAN, false, "one line, without spaces")
                        .returns(STRING)
                        .create(a -> stringify(a.value("value"), a.bool("compact"))));
    }

    static Object parse(String text) {
        if (text.isBlank())
            throw new ScriptException("json.parse(): malformed JSON: the text is empty");
        try {
            return MAPPER.readValue(text, Object.class);
        } catch (JacksonException e) {
            JsonLocation at = e.getLocation();
            String where =
                    at == null || at.getLineNr() < 1
                            ? ""
                            : " at line "
                                    + at.getLineNr()
                                    + (at.getColumnNr() > 0 ? ", column " + at.getColumnNr() : "");
            throw new ScriptException(
                    "json.parse(): malformed JSON"
                            + where
                            + ": "
                            + firstLine(e.getOriginalMessage()));
        }
    }

    static String stringify(Object value, boolean compact) {
        Object plain = plain(value, 0);
        try {
            return compact
                    ? MAPPER.writeValueAsString(plain)
                    : MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(plain);
        } catch (JacksonException e) {
            throw new ScriptException("json.stringify(): " + firstLine(e.getOriginalMessage()));
        }
    }

    /**
     * {@code value} as the maps, lists and scalars Jackson writes as such; nothing else gets
     * through.
     */
    private static Object plain(Object value, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ScriptException(
                    "json.stringify(): nested more than "
                            + MAX_DEPTH
                            + " deep (a map or list that contains itself?)");
        }
        if (value == null || value instanceof Boolean || value instanceof String) return value;
        if (value instanceof Double d) return d.isNaN() || d.isInfinite() ? null : d;
        if (value instanceof Float f) return f.isNaN() || f.isInfinite() ? null : f;
        if (value instanceof Number) return value;
        if (value instanceof CharSequence || value instanceof Character)
            return value.toString(); // GStrings, http results
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (e.getKey() == null)
                    throw new ScriptException(
                            "json.stringify(): a map key is null; JSON keys are strings");
                out.put(e.getKey().toString(), plain(e.getValue(), depth + 1));
            }
            return out;
        }
        if (value instanceof Collection<?> || value instanceof Object[]) {
            Collection<?> items =
                    value instanceof Object[] a ? Arrays.asList(a) : (Collection<?>) value;
            List<Object> out = new ArrayList<>(items.size());
            for (Object x : items) out.add(plain(x, depth + 1));
            return out;
        }
        String what =
                value instanceof Source s
                        ? "source " + s.id()
                        : value instanceof UserFunction || value instanceof groovy.lang.Closure<?>
                                ? "a function"
                                : value.getClass().getSimpleName() + " " + value;
        throw new ScriptException(
                "json.stringify(): cannot write "
                        + what
                        + " as JSON (maps, lists, numbers, strings, booleans and null only)");
    }

    private static String firstLine(String message) {
        if (message == null) return "invalid";
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).strip();
    }
}
