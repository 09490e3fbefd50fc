package org.groovecast.host.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ValueType;
import org.groovecast.host.Station;
import org.junit.jupiter.api.Test;

/**
 * What an operator declares beyond types: what its function parameters are called with ({@code
 * calls}), the values its number parameters take ({@code range}), and an integer's 32 bits; a
 * script that gives something else is refused at its line, when checked for what the script writes,
 * when the call binds for what it computes.
 */
class DeclaredLimitsTest {
    static ScriptFunctions functions() {
        ScriptFunctions f = ScriptCompilerTest.functions();
        f.add(
                OperatorSpec.named("picker")
                        .named("onPick", ValueType.FUNCTION, null, "called with each pick")
                        .calls("the picked source")
                        .named("level", ValueType.NUMBER, 0.5, "how loud")
                        .range(0, 1)
                        .named("count", ValueType.INTEGER, 1, "how many")
                        .named("only", ValueType.MAP, Map.of(), "[names: [...]]")
                        .check(DeclaredLimitsTest::onlyProblem)
                        .positional("source", ValueType.SOURCE, "the source")
                        .create(
                                a -> {
                                    if (a.function("onPick") != null)
                                        a.function("onPick").call(a.source("source"));
                                    return a.source("source");
                                }),
                "test");
        return f;
    }

    static List<String> errors(String script) {
        ScriptErrors e =
                assertThrows(
                        ScriptErrors.class,
                        () -> Station.load("s.groovy", script, functions(), Map.of()));
        return e.errors().stream().map(ScriptError::getMessage).toList();
    }

    static String failure(String script) {
        return assertThrows(
                        ScriptError.class,
                        () -> Station.load("s.groovy", script, functions(), Map.of()))
                .getMessage();
    }

    @Test
    void aFunctionThatCannotTakeWhatItIsCalledWithIsRefusedAtItsLine() {
        assertEquals(
                List.of(
                        "s.groovy:2: picker(): onPick is called with 1 argument (the picked source), but"
                                + " this function takes none; write { a -> ... }",
                        "s.groovy:3: thread.run(): function is called with no arguments, but this"
                                + " function takes 2; write { -> ... }",
                        "s.groovy:4: server.register(): handler is called with 1 argument (the text"
                                + " after the name), but this function takes 2; write { a -> ... }",
                        "s.groovy:5: this function is called with 1 argument (a Metadata); write { m ->"
                                + " ... }"),
                errors(
                        """
                        def s = tone()
                        out.sink(picker(s, onPick: { -> log.info('picked') }))
                        thread.run { a, b -> }
                        server.register('cmd') { a, b -> 'ok' }
                        s.onTrack { a, b -> }
                        """));
    }

    @Test
    void functionsThatFitPass() {
        Station s =
                Station.load(
                        "s.groovy",
                        """
                        out.sink(picker(tone(), onPick: { x -> log.info('one') }))
                        out.sink(picker(tone(), onPick: { log.info('two') }))
                        out.sink(picker(tone(), onPick: { x, y = 1 -> log.info('three') }))
                        thread.run { -> }
                        """,
                        functions(),
                        Map.of());
        assertEquals(List.of("info: one", "info: two", "info: three"), s.scriptLog().recent());
    }

    @Test
    void aFunctionInAVariableIsCheckedWhenTheCallBinds() {
        assertEquals(
                "s.groovy:2: picker(): onPick is called with 1 argument (the picked source), but this"
                        + " function takes none; write { a -> ... }",
                failure("def quiet = { -> }\nout.sink(picker(tone(), onPick: quiet))\n"));
    }

    @Test
    void numbersOutsideTheirRangeAreRefused() {
        assertEquals(
                List.of(
                        "s.groovy:1: picker() takes level from 0 to 1, got Integer 2",
                        "s.groovy:2: status.page() takes port from 0 to 65535, got Integer 70000"),
                errors("out.sink(picker(tone(), level: 2))\nstatus.page(port: 70000)\n"));
        assertEquals(
                "s.groovy:2: status.page() takes port from 0 to 65535, got Integer 70000",
                failure("out.sink(tone())\ndef p = 69999 + 1; status.page(port: p)\n"));
    }

    /** The check of picker's {@code only:}: every name a lower-case word. */
    private static String onlyProblem(Object v) {
        if (!(v instanceof Map<?, ?> m)) return "expects a map, got " + v;
        if (!(m.get("names") instanceof List<?> names)) return null; // not given, or not known yet
        for (Object n : names)
            if (!String.valueOf(n).matches("[a-z]+")) return "'" + n + "' is no lower-case word";
        return null;
    }

    @Test
    void aDeclaredCheckRefusesWhatTheScriptWritesWhenCheckedAndWhatItComputesWhenBound() {
        assertEquals(
                List.of("s.groovy:2: picker() only: 'B2' is no lower-case word"),
                errors(
                        """
                        out.sink(picker(tone(), only: [names: ['a', 'b']]))
                        out.sink(picker(tone(), level: 0.5,
                                only: [names: ['a', 'B2']]))
                        """));
        assertEquals(
                "s.groovy:2: picker() only: 'X' is no lower-case word",
                failure(
                        "def names = ['a'] + ['X']\nout.sink(picker(tone(), only: [names: names]))\n"));
        assertEquals(
                "s.groovy:2: picker() only: 'X' is no lower-case word",
                failure(
                        "def names = ['X']\n"
                                + "out.sink(picker(tone(), only: [names: names, more: ['b']]))\n"),
                "a map whose entries are partly computed is checked when the call binds");
        Station.load(
                "s.groovy",
                "out.sink(picker(tone(), only: [names: ['a', 'b']]))\n",
                functions(),
                Map.of());
    }

    @Test
    void anIntegerPast32BitsIsRefusedNotWrapped() {
        assertEquals(
                List.of(
                        "s.groovy:1: picker() takes count from -2147483648 to 2147483647 (a 32-bit"
                                + " integer), got Long 4294967297"),
                errors("out.sink(picker(tone(), count: 4294967297))\n"));
        assertEquals(
                "s.groovy:1: picker() takes count from -2147483648 to 2147483647 (a 32-bit integer),"
                        + " got Long 4294967297",
                failure("def n = json.parse('4294967297'); out.sink(picker(tone(), count: n))\n"));
    }
}
