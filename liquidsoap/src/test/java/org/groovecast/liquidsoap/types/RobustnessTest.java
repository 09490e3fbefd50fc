package org.groovecast.liquidsoap.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Hostile scripts: a located error or a result, never a hang or a stack overflow. */
class RobustnessTest {
    @Test
    void aTypeThatDoublesAtEachStepIsStoppedWithAMessage() {
        StringBuilder s = new StringBuilder("def f(x) = (x, x) end\nx0 = 1\n");
        for (int i = 1; i <= 60; i++)
            s.append("x").append(i).append(" = f(x").append(i - 1).append(")\n");
        s.append("y = x60 == x60\n");
        TypeError e =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(60),
                        () -> assertThrows(TypeError.class, () -> Check.checked(s.toString())));
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
    }

    @Test
    void aTypeNestedOnePerLineIsStoppedWithAMessage() {
        StringBuilder s = new StringBuilder("x0 = 1\n");
        for (int i = 1; i <= 5000; i++)
            s.append("x").append(i).append(" = [x").append(i - 1).append("]\n");
        TypeError e =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(60),
                        () -> assertThrows(TypeError.class, () -> Check.checked(s.toString())));
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
    }

    @Test
    void aDeeplyNestedExpressionIsChecked() {
        // the parser bounds nesting to 512: the checker handles what the parser gives
        String s = "x = " + "[".repeat(500) + "1" + "]".repeat(500);
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Check.checked(s));
    }

    @Test
    void aLongScriptIsLinear() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            s.append("def f").append(i).append("(x) = x + ").append(i).append(" end\n");
            s.append("y").append(i).append(" = f").append(i).append("(").append(i).append(")\n");
        }
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Check.checked(s.toString()));
        assertEquals("int", Check.typeOf(s.toString(), "y19999"));
    }
}
