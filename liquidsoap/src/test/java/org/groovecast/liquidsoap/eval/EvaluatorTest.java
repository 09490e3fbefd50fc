package org.groovecast.liquidsoap.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The language's constructs, evaluated without an engine. */
class EvaluatorTest {
    @Test
    void numbersStayIntegersOrFloats() {
        assertEquals("3", Liq.value("1 + 2"));
        assertEquals("3", Liq.value("7 / 2"));
        assertEquals("1", Liq.value("7 mod 3"));
        assertEquals("3.5", Liq.value("7. / 2."));
        assertEquals("0.3", Liq.value("0.1 +. 0.2"));
        assertEquals("1.0", Liq.value("1."));
        assertEquals("-4", Liq.value("x = 4\n-x"));
        assertEquals("255", Liq.value("0xff"));
        assertEquals("1000000", Liq.value("1_000_000"));
    }

    @Test
    void stringsConcatenateAndInterpolate() {
        assertEquals("\"ab\"", Liq.value("\"a\" ^ \"b\""));
        assertEquals("\"x = 3, 1.5\"", Liq.value("x = 3\n\"x = #{x}, #{1.5}\""));
        assertEquals("\"[1, 2]\"", Liq.value("\"#{[1, 2]}\""));
    }

    @Test
    void comparisonsAreStructural() {
        assertEquals("true", Liq.value("[1, 2] == [1, 2]"));
        assertEquals("true", Liq.value("(1, \"a\") < (1, \"b\")"));
        assertEquals("true", Liq.value("{a = 1, b = 2} == {a = 1, b = 2}"));
        assertEquals("false", Liq.value("{a = 1} == {a = 2}"));
        assertEquals("true", Liq.value("null == null"));
        assertEquals("true", Liq.value("\"a\".{x = 1} == \"a\""));
    }

    @Test
    void functionsTakeLabelledOptionalAndPositionalArguments() {
        String def = "def f(~a=1, ~b, c, d=4) = [a, b, c, d] end\n";
        assertEquals("[1, 2, 3, 4]", Liq.value(def + "f(b=2, 3)"));
        assertEquals("[10, 2, 3, 5]", Liq.value(def + "f(3, 5, b=2, a=10)"));
        assertEquals("3", Liq.value("def f(x, x) = x end\nf(2, 3)"));
        assertEquals("6", Liq.value("f = fun (x) -> x * 2\nf(3)"));
        assertEquals("5", Liq.value("g = {5}\ng()"));
    }

    @Test
    void defaultsAreEvaluatedOnceWhenTheFunctionIsMade() {
        assertEquals("2", Liq.value("def f(~r=ref(0)) = r := r() + 1; r() end\nignore(f())\nf()"));
    }

    @Test
    void closuresKeepTheScopeTheyWereMadeIn() {
        assertEquals("1", Liq.value("x = 1\ndef f() = x end\nx = 2\nf()"));
        assertEquals(
                "120",
                Liq.value(
                        "def rec fact(n) = if n == 0 then 1 else n * fact(n - 1) end end\nfact(5)"));
    }

    @Test
    void wrongCallsAreLocatedErrors() {
        assertEquals(
                "test.liq:2:0: f has no argument labelled c (its labels: b)",
                Liq.error("def f(~b) = b end\nf(c=1)"));
        assertEquals(
                "test.liq:2:0: f is missing its argument ~b", Liq.error("def f(~b) = b end\nf()"));
        assertEquals(
                "test.liq:2:0: unknown variable lenght; did you mean length?",
                Liq.error("length = 1\nlenght"));
        assertEquals("test.liq:1:0: unknown variable nosuch", Liq.error("nosuch"));
        assertTrue(
                Liq.error("x = 1\nx(2)")
                        .startsWith("test.liq:2:0: x is an integer 1, not a function"));
    }

    @Test
    void recordsAndValuesWithFields() {
        assertEquals("{a=1, b=\"x\"}", Liq.value("{b = \"x\", a = 1}"));
        assertEquals("\"f.mp3\".{duration=3.0}", Liq.value("\"f.mp3\".{duration = 3.}"));
        assertEquals("3.0", Liq.value("s = \"f.mp3\".{duration = 3.}\ns.duration"));
        assertEquals("{a=1, b=2}", Liq.value("r = {a = 1}\n{b = 2, ...r}"));
        assertEquals(
                "\"new\".{d=1}", Liq.value("s = \"old\".{d = 1}\ndef replaces s = \"new\" end\ns"));
        assertEquals("7", Liq.value("m = ()\nlet m.f = fun (x) -> x + 1\nm.f(6)"));
        assertEquals("2", Liq.value("let a = {b = {c = 1}}\nlet a.b.c = 2\na.b.c"));
        assertEquals("1", Liq.value("r = {a = 1}\nr.b ?? r.a"));
        assertEquals("null", Liq.value("r = {a = 1}\nr?.b"));
        assertEquals("3", Liq.value("open list\nlength([1, 2, 3])"));
    }

    @Test
    void patterns() {
        assertEquals("(1, [2, 3], 4)", Liq.value("let [x, ...y, z] = [1, 2, 3, 4]\n(x, y, z)"));
        assertEquals("(\"a\", 3.14)", Liq.value("let (_, s, f) = (1, \"a\", 3.14)\n(s, f)"));
        assertEquals(
                "(123, {gni=true})",
                Liq.value("let {foo, ...x} = {foo = 123, gni = true}\n(foo, x)"));
        assertEquals("null", Liq.value("let {foo?} = ()\nfoo"));
        assertEquals("(\"aa\".{foo=1}, 1)", Liq.value("let v.{foo} = \"aa\".{foo = 1}\n(v, foo)"));
        assertTrue(Liq.error("let [a, b] = [1]").contains("not have enough elements"));
    }

    @Test
    void controlFlow() {
        assertEquals(
                "\"b\"",
                Liq.value("x = 2\nif x == 1 then \"a\" elsif x == 2 then \"b\" else \"c\" end"));
        assertEquals("\"B\"", Liq.value("x = 5\nx < 3 ? \"A\" : \"B\""));
        assertEquals("10", Liq.value("s = ref(0)\nfor i = 1 to 4 do s := s() + i end\ns()"));
        assertEquals("3", Liq.value("i = ref(0)\nwhile i() < 3 do i := i() + 1 end\ni()"));
        assertEquals(
                "6",
                Liq.value("s = ref(0)\nfor x = list.iterator([1, 2, 3]) do s := s() + x end\ns()"));
        assertEquals("true", Liq.value("true and (false or true) and not false"));
    }

    @Test
    void errorsAreRaisedAndCaughtByKind() {
        assertEquals(
                "\"not_found: gone\"",
                Liq.value(
                        "try error.raise(error.not_found, \"gone\") catch e do \"#{e.kind}: #{e.message}\" end"));
        assertEquals(
                "\"mine\"",
                Liq.value(
                        "k = error.register(\"mine\")\n"
                                + "try error.raise(k, \"m\") catch e : [k] do e.kind end"));
        assertEquals(
                "test.liq:1:4: uncaught error failure: no",
                Liq.error(
                        "try error.raise(error.failure, \"no\") catch e : [error.not_found] do () end"));
        assertEquals("\"done\"", Liq.value("r = ref(\"\")\ntry () finally r := \"done\" end\nr()"));
    }

    @Test
    void ifdefChoosesItsBranchWhenEvaluated() {
        assertEquals("1", Liq.value("%ifdef list.map\nx = 1\n%else\nx = 2\n%endif\nx"));
        assertEquals(
                "2", Liq.value("%ifdef nosuch.thing\nx = nosuch.thing\n%else\nx = 2\n%endif\nx"));
        assertEquals("1", Liq.value("%ifversion >= 2.3.0\nx = 1\n%else\nx = 2\n%endif\nx"));
    }

    @Test
    void timePredicates() {
        TimePredicate p =
                TimePredicate.between(
                        null,
                        new org.groovecast.liquidsoap.syntax.TimeSpec(null, 8, null, null),
                        new org.groovecast.liquidsoap.syntax.TimeSpec(null, 12, null, null));
        assertEquals(new TimePredicate(8 * 3600, 12 * 3600, 86400), p);
        java.time.ZonedDateTime nine = java.time.ZonedDateTime.parse("2026-01-05T09:30:00Z");
        assertTrue(p.holds(nine));
        assertTrue(!p.holds(nine.withHour(12)));
        TimePredicate night =
                TimePredicate.between(
                        null,
                        new org.groovecast.liquidsoap.syntax.TimeSpec(null, 22, null, null),
                        new org.groovecast.liquidsoap.syntax.TimeSpec(null, 6, null, null));
        assertTrue(
                night.holds(nine.withHour(23))
                        && night.holds(nine.withHour(2))
                        && !night.holds(nine));
        TimePredicate minute =
                TimePredicate.during(
                        null, new org.groovecast.liquidsoap.syntax.TimeSpec(null, null, 0, null));
        assertEquals(new TimePredicate(0, 60, 3600), minute);
        assertEquals("true", Liq.value("0h-24h"));
    }

    @Test
    void encodersAreFormatValues() {
        Object f = new Liq().eval("%mp3(bitrate=128, stereo)");
        assertEquals(
                new Format(
                        "mp3",
                        java.util.List.of(
                                new Format.Param("bitrate", 128L),
                                new Format.Param("stereo", null))),
                f);
        Format ff =
                (Format)
                        new Liq()
                                .eval(
                                        "%ffmpeg(format=\"mpegts\", %audio(codec=\"aac\", b=\"64k\"))");
        assertEquals("mpegts", ff.get("format"));
        assertEquals("%audio(codec=\"aac\", b=\"64k\")", ff.params().get(1).value().toString());
    }

    @Test
    void aThousandLineScriptEvaluatesFast() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 250; i++) {
            s.append("def f").append(i).append("(x, ~y=1) =\n");
            s.append("  l = list.map(fun (z) -> z + x + y, [1, 2, 3])\n");
            s.append("  list.fold(fun (a, b) -> a + b, 0, l)\nend\n");
            s.append("v").append(i).append(" = f").append(i).append("(").append(i).append(")\n");
        }
        Liq liq = new Liq();
        liq.eval(s.toString());
        long t0 = System.nanoTime();
        for (int i = 0; i < 5; i++) new Liq().eval(s.toString());
        double ms = (System.nanoTime() - t0) / 5e6;
        assertTrue(ms < 500, "a 1,000-line script took " + ms + " ms");
    }
}
