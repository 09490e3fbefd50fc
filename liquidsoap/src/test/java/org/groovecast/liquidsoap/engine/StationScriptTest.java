package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ValueType;
import org.groovecast.host.Station;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptFunctions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Liquidsoap scripts loaded as stations (the engine's own operators, no plugin): what the front end
 * does differently on a station than alone.
 */
class StationScriptTest {
    @TempDir Path dir;

    private static Station load(String text, ScriptFunctions base) {
        return Station.load("x.liq", text, base, Map.of());
    }

    @Test
    void forceStartRunsAStationWithNoOutput() {
        String timer = "thread.run(delay=1., fun () -> print(\"tick\"))\n";
        ScriptError e = assertThrows(ScriptError.class, () -> load(timer, new ScriptFunctions()));
        assertTrue(e.getMessage().contains("defines no output"), e.getMessage());
        Station s = load("settings.init.force_start := true\n" + timer, new ScriptFunctions());
        s.stop();
    }

    @Test
    void shutdownAndExitReachTheStationsShutdownOperator() {
        List<Integer> codes = new ArrayList<>();
        ScriptFunctions base = new ScriptFunctions();
        base.add(
                OperatorSpec.named("shutdown")
                        .positional("code", ValueType.INTEGER, 0, "the code")
                        .returns(ValueType.NONE)
                        .create(
                                a -> {
                                    codes.add(a.integer("code"));
                                    return null;
                                }),
                "test");
        load("settings.init.force_start := true\nshutdown()\nshutdown(code=3)", base).stop();
        assertEquals(List.of(0, 3), codes);
        ScriptError e =
                assertThrows(
                        ScriptError.class,
                        () -> load("settings.init.force_start := true\nexit(123)", base));
        assertTrue(e.getMessage().contains("exit(123)"), e.getMessage());
        assertEquals(List.of(0, 3, 123), codes);
    }

    @Test
    void aRecordSpreadOnAStationHasOnlyItsFields() {
        load(
                        """
                        settings.init.force_start := true
                        x = {foo=123, gni="aabb"}
                        y = {bla=3.14, ...x}
                        if "#{y}" != "{bla=3.14, foo=123, gni=\\"aabb\\"}" then failwith("#{y}") end
                        """,
                        new ScriptFunctions())
                .stop();
    }

    @Test
    void interactiveVariablesOfTheEngineAreSavedLoadedAndRemoved() throws Exception {
        Path file = dir.resolve("vars.json");
        load(
                        """
                        settings.init.force_start := true
                        x = interactive.float("x", 2.)
                        b = interactive.bool("b", true)
                        interactive.save("%s")
                        x.set(15.)
                        b.set(false)
                        interactive.load("%s")
                        if x() != 2. or not b() then failwith("not loaded: #{x()} #{b()}") end
                        x.remove()
                        ok = try x.set(1.) false catch e : [error.not_found] do true end
                        if not ok then failwith("set after remove") end
                        """
                                .formatted(file, file),
                        new ScriptFunctions())
                .stop();
        String saved = Files.readString(file);
        assertTrue(saved.contains("\"float\""), saved);
        assertTrue(saved.replaceAll("\\s", "").contains("[\"x\",2.0]"), saved);
    }

    @Test
    void onCleanupRunsWhenTheStationStops() throws Exception {
        Path done = dir.resolve("cleaned");
        Station s =
                load(
                        "settings.init.force_start := true\n"
                                + "on_cleanup(fun () -> file.write(data=\"x\", \""
                                + done
                                + "\"))",
                        new ScriptFunctions());
        assertTrue(!Files.exists(done), "ran before the stop");
        s.stop();
        assertTrue(Files.exists(done), "did not run at the stop");
    }

    @Test
    void protocolCountCountsTheEnginesAndTheScripts() {
        load(
                        """
                        settings.init.force_start := true
                        n = protocol.count()
                        protocol.add("mine", fun (~rlog, ~maxtime, arg) -> arg)
                        if n < 5 or protocol.count() != n + 1 then failwith("#{n} then #{protocol.count()}") end
                        """,
                        new ScriptFunctions())
                .stop();
    }
}
