package org.groovecast.host.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.groovecast.host.Station;
import org.junit.jupiter.api.Test;

/**
 * A script that fails while it loads is one located line, whatever it throws; the forms Groovy
 * allows at the top of a script ({@code @Field}, a byte-order mark) load.
 */
class LoadFailuresTest {
    static String failure(String script) {
        ScriptError e =
                assertThrows(
                        ScriptError.class,
                        () ->
                                Station.load(
                                        "s.groovy",
                                        script,
                                        ScriptCompilerTest.functions(),
                                        Map.of()));
        return e.getMessage();
    }

    static Station load(String script) {
        return Station.load("s.groovy", script, ScriptCompilerTest.functions(), Map.of());
    }

    @Test
    void aFailedAssertionIsItsLineAndItsText() {
        assertEquals(
                "s.groovy:2: assertion failed: assert env('GROOVECAST_TEST_UNSET')",
                failure("out.sink(tone())\nassert env('GROOVECAST_TEST_UNSET')\n"));
        assertEquals(
                "s.groovy:1: assertion failed: API_KEY is not set",
                failure("assert env('GROOVECAST_TEST_UNSET'), 'API_KEY is not set'\n"));
    }

    @Test
    void anErrorThrownByTheScriptIsLocated() {
        assertEquals(
                "s.groovy:2: Error: bad", failure("out.sink(tone())\nthrow new Error('bad')\n"));
        assertEquals(
                "s.groovy:1: stack overflow (a function that calls itself without end?)",
                failure("def f(int n) { f(n + 1) }\nf(1)\n"));
    }

    @Test
    void fieldsMayHoldClosuresAndSourcesMadeByOperators() {
        Station s =
                load(
                        """
                        import groovy.transform.Field
                        @Field Closure say = { String x -> log.info(x) }
                        @Field def music = tone(330)
                        @Field final int n = 2
                        def play() { out.sink(music) }
                        say("n=${n}")
                        play()
                        """);
        assertEquals(List.of("info: n=2"), s.scriptLog().recent());
        assertEquals(1, s.graph().outputs().size());
    }

    @Test
    void aClassTheScriptDeclaresCannotCallTheStationAndSaysSo() {
        assertEquals(
                List.of(
                        "s.groovy:1: tone() is the script's: a class declared in the script cannot use"
                                + " the station's operators, settings or log; call them in the script or its"
                                + " functions and pass the class what it needs",
                        "s.groovy:2: a field's initial value in a class is checked without the script:"
                                + " give the field its value in a method or a constructor"),
                ScriptCompilerTest.errors(
                        "class Show { def music = tone(440) }\nclass Cue { def m; def at = m.x }\n"
                                + "out.sink(tone())\n"));
    }

    @Test
    void aByteOrderMarkIsNotPartOfTheScript() {
        assertEquals(1, load("\uFEFFout.sink(tone())\n").graph().outputs().size());
    }
}
