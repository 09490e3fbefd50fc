package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Subtyping as unification: what meets, what widens, what is refused and how it reads. */
class UnificationTest {
    @Test
    void groundTypesMustAgree() {
        assertEquals(
                "this value has type string but it should be a subtype of int",
                error("x = 2 * \"two\""));
        type("float", "x = 2. * 3.");
    }

    @Test
    void aListWidensToWhatItsElementsHaveInCommon() {
        type("[int?]", "x = [null, 3]");
        type("[int?]", "x = [3, null]");
        type("[{a? : int}]", "x = [(), {a = 1}]");
        assertEquals(
                "this value has type string but it should be a subtype of int",
                error("x = [3, \"three\"]"));
    }

    @Test
    void theBranchesOfAConditionalMeetTheSameWay() {
        type("string?", "x = if true then \"a\" else null end");
        type("{a? : int, b : int}", "x = if true then {a = 1, b = 2} else {b = 3} end");
        assertEquals(
                "this value has type bool but it should be a subtype of string",
                error("x = if true then \"a\" else false end"));
    }

    @Test
    void aTypeCannotContainItself() {
        assertEquals(
                "this value has type 'A but it should be a subtype of ('A) -> 'B",
                error("f = fun (x) -> x(x)"));
    }

    @Test
    void tuplesOfDifferentLengthsShowTheirShapes() {
        assertEquals(
                "this value has type _ * _ * _ but it should be a subtype of _ * _",
                error("x = fst((1, 2, 3))"));
    }

    @Test
    void numbersAndOrderableTypesAreConstraints() {
        assertEquals(
                "this value has type string but it should be a subtype of something that is a"
                        + " number type",
                error("x = \"a\" + \"b\""));
        assertEquals(
                "this value has type ('A, 'A) -> 'A where 'A is a number type but it should be a"
                        + " subtype of something that is an orderable type",
                error("x = (fun (a, b) -> a + b) == (fun (a, b) -> a + b)"));
        type(
                "('a, 'a) -> bool where 'a is an orderable type and a number type",
                "def x(a, b) = a + b == a end");
        type("bool", "x = (1, \"a\") < (2, \"b\")");
    }

    @Test
    void aRecordWithMoreFieldsStandsForOneWithFewer() {
        ok("def f(s) = \"<\" ^ s ^ \">\" end\nx = f(\"a\".{n = 3})");
    }

    @Test
    void argumentsAreContravariant() {
        // a function of a string can be used where a function of a richer string is expected
        type("int", "def g(f) = f(\"a\".{l = 3}) end\ndef f(_) = 0 end\nx = g(f)");
    }

    @Test
    void aFunctionMayTakeMoreOptionalArgumentsThanExpected() {
        ok("f = fun (a=1) -> a\nlist.iter(fun (f) -> ignore(f(42)), [f])");
        ok("g = fun (f) -> f(x=3)\nf = fun (~x=3, ~y=4) -> x + y\nignore(g(f))");
        assertEquals(
                "this value has type (y : int, ...) -> _ but it should be a subtype of (...) -> _",
                error("g = fun (f) -> f(x=3)\nf = fun (~x, ~y) -> x + y\nignore(g(f))"));
    }

    @Test
    void aFunctionOfNoArgumentIsAGetter() {
        type("int", "x = getter.get({1 + 2})");
        type("int", "x = getter.get(3)");
        assertEquals(
                "this value has type () -> string but it should be a subtype of {float}",
                error("x = amplify({\"a\"}, sine())"));
        assertEquals(
                "this value has type string but it should be a subtype of {float}",
                error("x = amplify(\"a\", sine())"));
    }
}
