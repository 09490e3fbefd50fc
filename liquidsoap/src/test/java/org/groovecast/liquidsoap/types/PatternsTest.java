package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.typeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What patterns bind. */
class PatternsTest {
    @Test
    void tuples() {
        String s = "let (a, (b, c)) = (1, (\"s\", true))";
        assertEquals("int", typeOf(s, "a"));
        assertEquals("string", typeOf(s, "b"));
        assertEquals("bool", typeOf(s, "c"));
        assertEquals(
                "this value has type _ * _ but it should be a subtype of _ * _ * _",
                error("let (a, b, c) = (1, 2)"));
    }

    @Test
    void listsWithASpread() {
        String s = "let [x, y, ...z, t] = [1, 2, 3, 4, 5]";
        assertEquals("int", typeOf(s, "x"));
        assertEquals("[int]", typeOf(s, "z"));
        assertEquals("int", typeOf(s, "t"));
        ok("let [] = [1, 2]");
        assertEquals(
                "this value has type int but it should be a subtype of [_]", error("let [x] = 1"));
    }

    @Test
    void records() {
        String s = "let {a, b?, c = (d, e), ...rest} = {a = 1, c = (2, \"x\"), f = 3.}";
        assertEquals("int", typeOf(s, "a"));
        assertEquals("'A?", typeOf(s, "b"));
        assertEquals("string", typeOf(s, "e"));
        assertEquals("{a? : never, b? : never, c? : never, f : float}", typeOf(s, "rest"));
    }

    @Test
    void aNamedRecordHidesTheFieldsItTakes() {
        assertEquals(
                "This value has type 'B.{foo? : never}, it cannot have method foo.",
                error("def f(x) =\n  let y.{foo} = x\n  y.foo + 1\nend"));
    }

    @Test
    void anOptionalFieldIsNullable() {
        assertEquals(
                "this value has type 'A? but it should be a subtype of something that is a number"
                        + " type",
                error("def f(x) =\n  let {foo?} = x\n  foo\nend\nx = f(()) + 123"));
    }

    @Test
    void parametersMayBePatterns() {
        assertEquals(
                "((int * string)) -> string", typeOf("def x((n, s)) = s ^ string(n + 1) end", "x"));
        assertEquals("('b.{a : 'a}) -> 'a", typeOf("x = fun ({a}) -> a", "x"));
    }
}
