package org.groovecast.liquidsoap.prelude;

import java.util.Map;
import org.groovecast.liquidsoap.eval.Json;

/**
 * {@code json.stringify}, {@code json.parse} (untyped: {@code let json.parse (x : T)} types it),
 * {@code json()}.
 */
final class JsonFunctions {
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
                "(?json5 : bool, string) -> 'a",
                "JSON text as a value (objects as records, arrays as lists).",
                Map.of("json5", false),
                a -> Json.parse(a.string(1), a.bool(0)));
        lib.function(
                "json",
                "() -> json",
                "A JSON object to fill with add(key, value).",
                a -> new Json.ObjectBuilder());
        lib.function(
                "json.object",
                "() -> json",
                "A JSON object to fill with add(key, value).",
                a -> new Json.ObjectBuilder());
        lib.function("json.value", "('a) -> json", "A value to put in JSON.", a -> a.get(0));
    }
}
