package org.groovecast.liquidsoap.engine;

import java.util.Map;
import org.groovecast.host.Station;
import org.groovecast.host.script.ScriptFunctions;
import org.junit.jupiter.api.Test;

/**
 * {@code let eval} on a station: the string is type-checked when it is evaluated, as Liquidsoap
 * does, in the scope the library and the script's top level give; refused, it raises an {@code
 * eval} error the script catches, and nothing of it runs.
 */
class EvalStationTest {
    private static void run(String text) {
        Station.load(
                        "x.liq",
                        "settings.init.force_start := true\n" + text,
                        new ScriptFunctions(),
                        Map.of())
                .stop();
    }

    @Test
    void anIllTypedStringIsRefusedBeforeAnyOfItRuns() {
        run(
                """
                r = ref(0)
                kind = try
                  let eval _ = "r := 1\\nignore([4, \\"x\\"])"
                  "accepted"
                catch err do
                  if not string.contains(substring="this value has type string but it should be a subtype of int", err.message) then failwith(err.message) end
                  err.kind
                end
                if kind != "eval" then failwith("kind: #{kind}") end
                if r() != 0 then failwith("the refused string ran") end
                """);
    }

    @Test
    void theStringIsCheckedAgainstTheAnnotationAndTheScriptsNames() {
        run(
                """
                y = 41
                let eval (x : int) = "y + 1"
                if x != 42 then failwith("x: #{x}") end
                refused = try
                  let eval (z : int) = "\\"a\\""
                  false
                catch err do
                  err.kind == "eval"
                end
                if not refused then failwith("a string accepted as an int") end
                """);
    }
}
