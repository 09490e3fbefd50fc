package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.groovecast.host.script.ScriptFrontEnd;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.host.script.ScriptRuntime;
import org.groovecast.host.script.ScriptSettings;
import org.junit.jupiter.api.Test;

/**
 * The front end through the engine's seam, without the engine's operators: whatever a script does
 * wrong, loading or running it answers one located line, never anything else.
 */
class FrontEndTest {
    private static final ScriptSettings NO_SETTINGS = ScriptSettings.none();

    /** The one message loading and running {@code text} fails with. */
    private static String failure(String text) {
        ScriptFunctions functions = new ScriptFunctions();
        RuntimeException e =
                assertThrows(
                        RuntimeException.class,
                        () -> {
                            ScriptFrontEnd.Script s =
                                    new LiquidsoapFrontEnd()
                                            .load("x.liq", text, functions, NO_SETTINGS);
                            s.run(
                                    new ScriptRuntime(
                                            s.files(),
                                            functions,
                                            NO_SETTINGS,
                                            (src, line) -> {},
                                            null));
                        });
        assertTrue(e instanceof ScriptError || e instanceof ScriptErrors, e.getClass() + ": " + e);
        String m = e.getMessage();
        assertEquals(1, m.lines().count(), m);
        assertFalse(m.contains("\tat "), m);
        return m;
    }

    @Test
    void typeMistakesAreRefusedBeforeAnythingRunsInOneLocatedLine() {
        assertEquals(
                "x.liq:1:8: this value has type string but it should be a subtype of int",
                failure("x = 1 + \"a\""));
        assertEquals(
                "x.liq:2:0: this value has type int but it should be a subtype of (_) -> _",
                failure("f = 3\nf(1)"));
        assertEquals(
                "x.liq:2:0: this value has no method `b`. Its type is {a : int}.",
                failure("r = {a = 1}\nr.b"));
    }

    @Test
    void mistakesAtRunTimeAreOneLocatedLine() {
        assertEquals(
                "x.liq:1:0: List value does not have enough elements to fit the extraction pattern!",
                failure("let [a, b] = [1]"));
        assertEquals("x.liq:1:4: division by zero", failure("x = 1 / 0"));
        assertTrue(failure("def rec f(x) = f(x) + 1 end\nf(1)").contains("stack overflow"));
        assertEquals("x.liq:1:0: uncaught error failure: bad", failure("failwith(\"bad\")"));
        assertTrue(
                failure("output.dummy(sine())").startsWith("x.liq:1:0: unknown variable output"));
    }

    @Test
    void anyBytesAreRefusedWithOneLine() {
        Random random = new Random(25);
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            StringBuilder text = new StringBuilder();
            String alphabet =
                    "abcdef()[]{}=,.:;\"'#%~?!-+*/<>@ \n\tletdefendfunif then else 1 2.5 %mp3 ";
            int n = random.nextInt(80);
            for (int k = 0; k < n; k++)
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            ScriptFunctions functions = new ScriptFunctions();
            try {
                ScriptFrontEnd.Script s =
                        new LiquidsoapFrontEnd()
                                .load("x.liq", text.toString(), functions, NO_SETTINGS);
                s.run(
                        new ScriptRuntime(
                                s.files(), functions, NO_SETTINGS, (src, line) -> {}, null));
            } catch (ScriptError | ScriptErrors e) {
                assertTrue(e.getMessage().startsWith("x.liq"), e.getMessage());
                assertEquals(1, e.getMessage().lines().count(), e.getMessage());
                messages.add(e.getMessage());
            }
        }
        assertTrue(messages.size() > 100);
    }
}
