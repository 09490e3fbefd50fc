package org.groovecast.liquidsoap.prelude;

import java.util.Map;
import org.groovecast.liquidsoap.eval.Json;

/**
 * {@code json.stringify}, {@code json.parse} (untyped: {@code let json.parse (x : T)} types it),
 * {@code json()}.
 */
final class JsonFunctions {
    /** What json() answers: an object to fill. */
    private static final String OBJECT =
            "json.{add : 'a.(string, 'a) -> unit, remove : (string) -> unit}";

    private JsonFunctions() {}

    static void register(Library lib) {
        lib.function(
                "json.stringify",
                "(?json5 : bool, ?compact : bool, 'a) -> string",
                "A value as JSON text.",
                Map.of("json5", false, "compact", false),
                a -> Json.stringify(a.get(2), !a.bool(1), a.bool(0)));
        lib.function(
                "json.parse",
                "(?json5 : bool, ?default : 'a, string) -> 'a",
                "JSON text as a value (objects as records, arrays as lists); the default, when"
                        + " given, where the text is no JSON. Liquidsoap reads it as the default's"
                        + " type: write let json.parse (x : t) = s for that.",
                Map.of("json5", false),
                a -> {
                    try {
                        return Json.parse(a.string(2), a.bool(0));
                    } catch (org.groovecast.liquidsoap.eval.LiqError e) {
                        if (a.given(1)) return a.get(1);
                        throw e;
                    }
                });
        lib.function(
                "json",
                "() -> " + OBJECT,
                "A JSON object to fill with add(key, value).",
                a -> new Json.ObjectBuilder());
        lib.function(
                "json.object",
                "() -> " + OBJECT,
                "A JSON object to fill with add(key, value).",
                a -> new Json.ObjectBuilder());
        lib.function("json.value", "('a) -> json", "A value to put in JSON.", a -> a.get(0));
    }
}
