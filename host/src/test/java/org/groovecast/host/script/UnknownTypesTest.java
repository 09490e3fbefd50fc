package org.groovecast.host.script;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.groovecast.host.Station;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operators on values whose type the script does not say (def, json.parse, untyped closure
 * parameters, what an included function returns) run as dynamic Groovy runs them; before, an index
 * of such a value stopped the compiler with Groovy's "BUG! ... getAt".
 */
class UnknownTypesTest {
    @TempDir Path dir;

    static List<String> logged(String script) {
        Station s = Station.load("s.groovy", script, ScriptCompilerTest.functions(), Map.of());
        return s.scriptLog().recent();
    }

    @Test
    void indexesOfParsedJsonRun() {
        assertEquals(
                List.of("info: 3 c [1, 2] [b, c] 5 null"),
                logged(
                        """
                        def m = json.parse('{"x": [1, 2, {"y": 3}], "s": ["a", "b", "c"]}')
                        def none = null
                        log.info("${m.x[2].y} ${m.s[-1]} ${m.x[0..1]} ${m.s[1..-1]} ${m.x[0] + 4} ${none?[0]}")
                        out.sink(tone())
                        """));
    }

    @Test
    void indexedValuesCanBeAssigned() {
        assertEquals(
                List.of("info: [10, 2, 3] [n:12, k:1] [9, 2, 3]"),
                logged(
                        """
                        def m = json.parse('{"xs": [1, 2, 3], "n": 5}')
                        def xs = m.xs
                        xs[0] = 10
                        m.n += 1
                        m['n'] *= 2
                        def key = 'k'
                        m[key] = 1
                        m.remove('xs')
                        def ys = json.parse('[1, 2, 3]')
                        ys[0] = 9
                        log.info("${xs} ${m} ${ys}")
                        out.sink(tone())
                        """));
    }

    @Test
    void operatorsOnUntypedValuesRun() {
        assertEquals(
                List.of("info: 9 36 4 0 144 1 true true [1, 2, 3] 4 a|b"),
                logged(
                        """
                        def m = json.parse('{"a": 12, "b": 3, "l": [1, 2]}')
                        def a = m.a
                        def b = m.b
                        def l = m.l
                        l << 3
                        def join = { x, y -> x + '|' + y }
                        log.info("${a - b} ${a * b} ${a / b} ${a % b} ${a ** 2} ${a <=> 1} "
                                + "${a > b} ${b in [3, 4]} ${l} ${1 + b} ${join('a', 'b')}")
                        out.sink(tone())
                        """));
    }

    @Test
    void aDeclaredTypeTakesAValueOfUnknownTypeAndSizesAreNumbers() {
        assertEquals(
                List.of("info: 4 3.0 a b 2"),
                logged(
                        """
                        def m = json.parse('{"n": 3, "x": 1.5, "xs": ["a", "b"]}')
                        int n = m.n
                        double twice = m.x * 2
                        String text = ''
                        for (int i = 0; i < m.xs.size(); i++) text += m.xs[i] + ' '
                        log.info("${n + 1} ${twice} ${text}${m.xs.size()}")
                        out.sink(tone())
                        """));
    }

    @Test
    void aSplitArgumentOfAControlCommandIsIndexed() {
        Station s =
                Station.load(
                        "s.groovy",
                        """
                        server.register('set') { arg -> def p = arg.split(' '); log.info(p[0]); p[1] }
                        out.sink(tone())
                        """,
                        ScriptCompilerTest.functions(),
                        Map.of());
        assertEquals("two", s.commands().run("set one two").text());
        assertEquals(List.of("info: one"), s.scriptLog().recent());
    }

    @Test
    void whatAnIncludedFunctionReturnsIsIndexed() throws IOException {
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(
                dir.resolve("lib/api.groovy"),
                "def titles() { json.parse('[{\"t\": \"a\"}, {\"t\": \"b\"}]') }\n");
        Path radio = dir.resolve("radio.groovy");
        Files.writeString(
                radio,
                "include('lib/api.groovy')\nlog.info(titles()[-1].t + titles()[0]['t'])\nout.sink(tone())\n");
        Station s = Station.load(radio, ScriptCompilerTest.functions(), Map.of(), Map.of());
        assertEquals(List.of("info: ba"), s.scriptLog().recent());
    }

    @Test
    void whatCannotRunSaysWhatToWrite() {
        assertEquals(
                List.of(
                        "s.groovy:3: ++ needs a value whose type is known here (this one's is not: def,"
                                + " json.parse(...), an untyped closure parameter); declare it (int n = ...) or"
                                + " convert it ((n as int))"),
                ScriptCompilerTest.errors(
                        "def m = json.parse('{\"n\": 1}')\ndef n = m.n\nn++\nout.sink(tone())\n"));
    }

    @Test
    void anOperatorAnUntypedValueDoesNotHaveFailsAtTheScriptsLine() {
        // Groovy reports a missing method of a dynamic call without a stack trace: the line came
        // from nowhere, and the load failed unlocated.
        ScriptError e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        ScriptError.class,
                        () ->
                                logged(
                                        """
                                        def m = json.parse('{"a": 1}')
                                        log.info("${m * 2}")
                                        out.sink(tone())
                                        """));
        assertEquals(
                "s.groovy:2: MissingMethodException: No signature of method: multiply for class:"
                        + " java.util.LinkedHashMap is applicable for argument types: (Integer) values: [2]",
                e.getMessage());
    }

    @Test
    void anOperandThatDoesNotFitAKnownCollectionIsRefusedInTheScriptsWords() {
        assertEquals(
                List.of(
                        "s.groovy:2: << cannot take values of these types: List<String>, int; convert"
                                + " one (x as int, x as String) or declare the collection's type"
                                + " (List<Object>, Map<String, Object>)"),
                ScriptCompilerTest.errors(
                        "def t = 'a b'.tokenize(' ')\nt << 4\nout.sink(tone())\n"));
    }

    @Test
    void aStringIndexedByANameIsRefusedAtItsLine() {
        // Groovy reads it as a property of the string, whose failure has no stack trace: before,
        // the load failed with no line.
        assertEquals(
                List.of(
                        "s.groovy:2: x['...'] reads a property by name, and a String is no map: index"
                                + " a map (Map m = json.parse(...); m['key']) or a list by number (xs[0])"),
                ScriptCompilerTest.errors(
                        "def v = env('X', 'a')\nlog.info(\"${v['x']}\")\nout.sink(tone())\n"));
    }

    @Test
    void aNameReadOfAValueOfUnknownTypeFailsAtTheScriptsLine() {
        ScriptError e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        ScriptError.class,
                        () ->
                                logged(
                                        """
                                        def f(v) { v['x'] }
                                        log.info("${f([x: 1])}")
                                        log.info("${f('a')}")
                                        out.sink(tone())
                                        """));
        assertEquals(
                "s.groovy:1: MissingPropertyException: No such property: x for class: java.lang.String",
                e.getMessage());
    }
}
