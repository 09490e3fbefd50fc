package org.groovecast.host.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.groovecast.host.Station;
import org.groovecast.host.script.ScriptCompilerTest;
import org.groovecast.host.script.ScriptError;
import org.junit.jupiter.api.Test;

class JsonFunctionsTest {
    static List<String> run(String script) {
        return Station.load(
                        "s.groovy",
                        script + "\nout.sink(tone())\n",
                        ScriptCompilerTest.functions(),
                        Map.of())
                .scriptLog()
                .recent();
    }

    @Test
    void parsedValuesAreGroovyMapsListsAndScalarsAndWriteBackTheSame() {
        String text =
                "{\"title\":\"Été \\\"live\\\"\",\"n\":3,\"big\":12345678901,\"x\":2.5,\"ok\":true,\"none\":null,"
                        + "\"list\":[1,\"a\",[],{}],\"obj\":{\"k\":false}}";
        List<String> log =
                run(
                        """
                def v = json.parse('%s') as Map
                log.info(json.stringify(v, compact: true))
                log.info("${v.n.getClass().simpleName} ${v.big.getClass().simpleName} ${v.x.getClass().simpleName} ${v.list.getClass().simpleName} ${v.obj.getClass().simpleName} ${v.title}")
                """
                                .formatted(text.replace("\\", "\\\\")));
        assertEquals(
                List.of(
                        "info: " + text,
                        "info: Integer Long Double ArrayList LinkedHashMap Été \"live\""),
                log);
    }

    @Test
    void stringifyWritesScriptValuesPrettyByDefault() {
        List<String> log =
                run(
                        """
                def n = 2
                log.info(json.stringify(["k${n}": "v${n}", list: [1, 2.5, null, true], nan: 0.0d / 0.0d, s: 'x' as Character]))
                log.info(json.stringify([1, [a: [:]], []], compact: true))
                log.info(json.stringify(null) + ' ' + json.stringify('a"b') + ' ' + json.stringify(7))
                """);
        assertEquals(
                List.of(
                        """
                info: {
                  "k2" : "v2",
                  "list" : [ 1, 2.5, null, true ],
                  "nan" : null,
                  "s" : "x"
                }""",
                        "info: [1,{\"a\":{}},[]]",
                        "info: null \"a\\\"b\" 7"),
                log);
    }

    @Test
    void malformedJsonIsAnErrorWithItsPositionThatTheScriptCatches() {
        List<String> log =
                run(
                        """
                for (String t : ['{"a": 1,}', '[1, 2]\\n]', '{"a":\\n  tru}', '', '{"a": 1} x']) {
                    try {
                        json.parse(t)
                        log.info('parsed')
                    } catch (e) {
                        log.info(e.message)
                    }
                }
                """);
        assertEquals(5, log.size(), String.join("\n", log));
        assertEquals(
                "info: s.groovy:3: json.parse(): malformed JSON at line 1, column 9: Unexpected character ('}' (code 125)): "
                        + "was expecting double-quote to start field name",
                log.get(0));
        assertEquals(
                "info: s.groovy:3: json.parse(): malformed JSON at line 2, column 1: Unexpected close marker ']': "
                        + "no open Array to close",
                log.get(1));
        assertEquals(
                "info: s.groovy:3: json.parse(): malformed JSON at line 2, column 3: Unrecognized token 'tru'",
                log.get(2).replaceAll("'tru'.*", "'tru'"));
        assertEquals(
                "info: s.groovy:3: json.parse(): malformed JSON: the text is empty", log.get(3));
        assertEquals(
                "info: s.groovy:3: json.parse(): malformed JSON at line 1, column 10: Unrecognized token 'x'",
                log.get(4).replaceAll("'x'.*", "'x'"));
    }

    @Test
    void whatJsonCannotSayIsAnErrorNamingIt() {
        ScriptError e =
                assertThrows(
                        ScriptError.class,
                        () ->
                                run(
                                        """
                def t = tone(id: 'music')
                json.stringify([source: t])
                """));
        assertEquals(
                "s.groovy:2: json.stringify(): cannot write source music as JSON (maps, lists, numbers, strings, booleans "
                        + "and null only)",
                e.getMessage());
        ScriptError deep =
                assertThrows(
                        ScriptError.class,
                        () ->
                                run(
                                        """
                List top = []
                List at = top
                1001.times { List inner = []; at << inner; at = inner }
                json.stringify(top)
                """));
        assertEquals(
                "s.groovy:4: json.stringify(): nested more than 1000 deep (a map or list that contains itself?)",
                deep.getMessage());
    }
}
