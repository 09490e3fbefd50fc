package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.located;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Labelled, optional and positional arguments. */
class ArgumentsTest {
    @Test
    void labelsInAnyOrderOptionalOnesLeftOut() {
        String f = "def f(~x, ~y=2, z) = x + y + z end\n";
        type("int", f + "x = f(3, x=1)");
        type("int", f + "x = f(y=5, 3, x=1)");
        type("(x : int, ?y : int, int) -> int", f + "x = f");
    }

    @Test
    void aMissingArgumentIsNamedWithItsType() {
        assertEquals(
                "Missing arguments in function application: x : int, int.",
                error("def f(~x, ~y=2, z) = x + y + z end\nignore(f(y=1))"));
        assertEquals(
                "Missing arguments in function application: 'A.",
                error("def f(x, y) = y end\nignore(f(2))"));
    }

    @Test
    void anUnknownLabelIsRefusedAtTheArgumentWithTheNearestLabel() {
        assertEquals(
                "t.liq:2:16: Cannot apply that parameter because the function at t.liq:2:4 has no"
                        + " argument labeled \"lenght\"! Did you mean \"length\"?",
                located("def f(~x, ~length=2, z) = x + length + z end\nx = f(3, lenght=1, x=1)"));
        assertEquals(
                "Cannot apply that parameter because the function at t.liq:1:0 has no more"
                        + " argument labeled \"transitions\"!",
                error("fallback(transitions=[], transitions=[], [blank()])"));
        assertEquals(
                "Cannot apply that parameter because the function at t.liq:2:7 has no unlabeled"
                        + " argument!",
                error("def f(~x) = x end\nignore(f(x=1, 2))"));
    }

    @Test
    void aLabelAppearsOnceInAFunction() {
        assertEquals(
                "Function has multiple arguments with the same label: l",
                error("f = fun (~l, ~l) -> l"));
    }

    @Test
    void argsofTakesAnotherFunctionsLabelledParameters() {
        type(
                "(?x : int, ?y : int) -> int",
                "def f(~x=1, ~y=2) = x + y end\ndef x(%argsof(f)) = f(%argsof(f)) end");
        type(
                "(?x : int, v : 'a) -> 'a",
                "def f(~x=1, ~y=2) = x + y end\ndef x(%argsof(f[!y]), ~v) = v end");
        assertEquals(
                "f does not have an argument named z",
                error("def f(~x=1) = x end\ndef g(%argsof(f[z])) = 1 end"));
        ok("def g(%argsof(amplify[override])) = override end");
    }

    @Test
    void transitionsOfAFallbackTakeTwoSources() {
        ok("ignore(fallback(transitions=[fun (a, b, c=2) -> a], [blank()]))");
        assertEquals(
                "this value has type [(l : _) -> _] but it should be a subtype of [(_, ...) -> _]",
                error("ignore(fallback(transitions=[fun (~l) -> 1], [blank()]))"));
        assertEquals(
                "this value has type [(_, int, ...) -> _] but it should be a subtype of [(_,"
                        + " source(_), ...) -> _]",
                error("ignore(fallback(transitions=[fun (x, y) -> y + 1], [blank()]))"));
    }
}
