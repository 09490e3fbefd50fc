package org.groovecast.host.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.ValueType;
import org.groovecast.host.Station;
import org.junit.jupiter.api.Test;

/**
 * The script compiler and runtime against a few test operators, without plugins (other tests use
 * them too).
 */
public class ScriptCompilerTest {
    static final class Tone extends Generator {
        final double freq;

        Tone(double freq) {
            super("tone");
            this.freq = freq;
        }

        @Override
        protected void generate(Frame frame) {
            frame.silence(frame.free());
        }
    }

    static final class Sink extends Output {
        Sink(Source s) {
            super("sink", s, false);
        }

        @Override
        protected void send(Frame frame) {}
    }

    public static ScriptFunctions functions() {
        ScriptFunctions f = new ScriptFunctions();
        f.add(
                OperatorSpec.named("tone")
                        .positional("freq", ValueType.NUMBER, 440.0, "Hz")
                        .named("gain", ValueType.NUMBER, 1.0, "gain")
                        .create(a -> new Tone(a.number("freq"))),
                "test");
        f.add(
                OperatorSpec.named("mix")
                        .positional("sources", ValueType.SOURCES, "inputs")
                        .create(a -> a.sources("sources").getFirst()),
                "test");
        f.add(
                OperatorSpec.named("out.sink")
                        .positional("source", ValueType.SOURCE, "input")
                        .returns(ValueType.OUTPUT)
                        .create(a -> new Sink(a.source("source"))),
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

    @Test
    void argumentTypesAreCheckedAtCompileTimeWithTheirLines() {
        assertEquals(
                List.of("s.groovy:2: tone() expects a number for gain, got String \"loud\""),
                errors(
                        "def a = tone(440)\ndef b = tone(220, gain: 'loud')\nout.sink(mix(a, b))\n"));
        assertEquals(
                List.of("s.groovy:1: tone() expects a number for freq, got String \"x\""),
                errors("out.sink(tone('x'))\n"));
        assertEquals(
                List.of("s.groovy:1: out.sink() is missing its source argument (a source)"),
                errors("out.sink()\n"));
        assertEquals(
                List.of("s.groovy:1: mix() expects sources, got Integer 3"),
                errors("out.sink(mix([tone(), 3]))\n"));
    }

    @Test
    void allMistakesAreReportedAtOnce() {
        assertEquals(2, errors("def a = tone(gian: 2)\nout.sinc(a)\n").size());
    }

    @Test
    void namespacesAndSettingsAreCheckedToo() {
        assertEquals(
                List.of("s.groovy:1: unknown operator out.snk(); did you mean out.sink()?"),
                errors("out.snk(tone())\n"));
        assertTrue(
                errors("settings.clock.sinc = 'none'\nout.sink(tone())\n")
                        .getFirst()
                        .startsWith("s.groovy:1: unknown setting settings.clock.sinc"));
    }

    @Test
    void aWrongSettingValueIsFoundAtCompileTimeOrAtRunTime() {
        assertEquals(
                List.of(
                        "s.groovy:2: settings.audio.channels expects an integer, got String \"two\""),
                errors("out.sink(tone())\nsettings.audio.channels = 'two'\n"));
        ScriptError e =
                assertThrows(
                        ScriptError.class,
                        () ->
                                Station.load(
                                        "s.groovy",
                                        "out.sink(tone())\ndef v = 'none'\nsettings.clock.sync = v.size()\n",
                                        functions(),
                                        Map.of()));
        assertEquals("s.groovy:3: settings.clock.sync expects a string, got 4", e.getMessage());
    }

    @Test
    void valuesOfUnknownTypeStayDynamicAndWork() {
        Station s =
                Station.load(
                        "s.groovy",
                        """
                def sources = [tone(100), tone(200)]
                def pick = { List xs -> xs[1] }
                def count = { xs -> xs.size() }
                log.info("${count(sources)}")
                out.sink(mix(sources))
                out.sink(pick(sources))
                settings.frame.duration = 0.04
                """,
                        functions(),
                        Map.of());
        assertEquals(2, s.graph().outputs().size());
        assertEquals(0.04, s.settings().number("frame.duration"));
    }

    @Test
    void aCompiledScriptKeepsNoneOfItsCompilersStateOnlyItsClasses() throws Exception {
        ScriptCompiler.Compiled c =
                ScriptCompiler.compile(
                        "kept.groovy", "out.sink(tone(440))", functions(), ScriptSettings.none());
        // The loader stays with the station; its configuration's customizers held the last
        // compilation unit (the AST, the parse tree, the class bytes) for as long.
        var field = groovy.lang.GroovyClassLoader.class.getDeclaredField("config");
        field.setAccessible(true);
        var config = (org.codehaus.groovy.control.CompilerConfiguration) field.get(c.loader());
        assertEquals(List.of(), config.getCompilationCustomizers());
        assertTrue(StationScript.class.isAssignableFrom(c.type()), "and its class is there");
    }
}
