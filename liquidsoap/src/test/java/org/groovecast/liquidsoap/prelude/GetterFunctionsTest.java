package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;

/** string.getter.* and getter.map.memoize. */
class GetterFunctionsTest {
    private static final String THREE =
            "def three() =\n  n = ref(0)\n  fun () -> if n() == 3 then \"\" else begin ref.incr(n) \"ab\" end end\nend\n";

    @Test
    void stringGettersAreDrainedAndChained() {
        assertEquals("(\"x\", \"\")", Liq.value("g = string.getter.single(\"x\")\n(g(), g())"));
        assertEquals(
                "\"ab,ab,ab\"",
                Liq.value(THREE + "string.getter.flush(separator=\",\", getter(three()))"));
        assertEquals("\"c\"", Liq.value("string.getter.flush(getter(\"c\"))"));
        assertEquals(
                "\"ab|ab|ab|z\"",
                Liq.value(
                        THREE
                                + "string.getter.flush(separator=\"|\", string.getter.concat("
                                + "[getter(\"\"), getter(three()), getter(\"z\")]))"));
    }

    @Test
    void memoizeCallsTheFunctionOncePerValue() {
        assertEquals(
                "(\"A\", \"A\", 1)",
                Liq.value(
                        "n = ref(0)\n"
                                + "g = getter.map.memoize(fun (s) -> begin ref.incr(n) string.case(lower=false, s) end, getter(\"a\"))\n"
                                + "(getter.get(g), getter.get(g), n())"));
        assertEquals(
                "(2, 2, 4, 2)",
                Liq.value(
                        "n = ref(0)\nx = ref(1)\n"
                                + "g = getter.map.memoize(fun (v) -> begin ref.incr(n) 2 * v end, {x()})\n"
                                + "a = getter.get(g)\nb = getter.get(g)\nx := 2\n"
                                + "(a, b, getter.get(g), n())"));
        Registered.withTypes(
                "string.getter.single",
                "string.getter.flush",
                "string.getter.concat",
                "getter.map.memoize");
    }
}
