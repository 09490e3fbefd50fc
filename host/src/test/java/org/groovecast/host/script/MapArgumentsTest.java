package org.groovecast.host.script;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.groovecast.host.Station;
import org.junit.jupiter.api.Test;

/**
 * A map given as a value is a value, whatever its keys: only a map written as named arguments at
 * the call site ({@code f(compact: true)}) is named arguments. Before, {@code json.stringify(m)}
 * with {@code m = [:]} or {@code [compact: true]} was "missing its value argument".
 */
class MapArgumentsTest {
    static List<String> logged(String script) {
        Station s = Station.load("s.groovy", script, ScriptCompilerTest.functions(), Map.of());
        return s.scriptLog().recent();
    }

    @Test
    void aMapVariableIsAValueWhateverItsKeys() {
        assertEquals(
                List.of(
                        "info: { }",
                        "info: {\n  \"compact\" : true\n}",
                        "info: {\n  \"id\" : \"x\"\n}",
                        "info: {\"compact\":true}"),
                logged(
                        """
                        Map empty = [:]
                        def options = [compact: true]
                        def id = [id: 'x']
                        log.info(json.stringify(empty))
                        log.info(json.stringify(options))
                        log.info(json.stringify(id))
                        log.info(json.stringify(options, compact: true))
                        out.sink(tone())
                        """));
    }

    @Test
    void aMapLiteralIsAValueAndNamedArgumentsStayNamed() {
        assertEquals(
                List.of(
                        "info: {\n  \"compact\" : true\n}",
                        "info: {\"a\":1}",
                        "info: {\"a\":1}",
                        "info: {\"a\":1,\"b\":2}"),
                logged(
                        """
                        log.info(json.stringify([compact: true]))
                        log.info(json.stringify([a: 1], compact: true))
                        log.info(json.stringify(compact: true, [a: 1]))
                        log.info(json.stringify(compact: true, [a: 1, b: 2]))
                        out.sink(tone())
                        """));
    }

    @Test
    void anEmptyMapIsAValueAnywhere() {
        assertEquals(
                List.of("info: {}", "info: { }", "info: { }"),
                logged(
                        """
                        log.info([:])
                        log.info(json.stringify(json.parse('{}')))
                        def show = { m -> log.info(json.stringify(m)) }
                        show([:])
                        out.sink(tone())
                        """));
    }
}
