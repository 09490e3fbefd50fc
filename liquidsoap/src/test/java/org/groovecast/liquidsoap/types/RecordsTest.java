package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.groovecast.liquidsoap.types.Check.typeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Records and methods, open where Liquidsoap infers them, optional fields. */
class RecordsTest {
    @Test
    void aRecordAndAValueWithMethods() {
        type("{a : int, b : string}", "x = {b = \"s\", a = 1}");
        type(
                "string.{bpm : float, duration : float}",
                "x = \"f.mp3\".{duration = 123., bpm = 120.}");
        type("unit", "x = {}");
        type("int", "x = {a = 1}.a");
    }

    @Test
    void aFieldOfAnUnknownValueMakesItARecordWithThatField() {
        type("('b.{foo : 'a}) -> 'a", "def x(r) = r.foo end");
        type("('a.{foo? : int}) -> int", "def x(r) = r.foo ?? 1 end");
        type("('b.{foo? : 'a}) -> 'a?", "def x(r) = r?.foo end");
    }

    @Test
    void aMissingFieldIsNamedWithTheNearestOne() {
        assertEquals(
                "this value has no method `lenght` (did you mean `length`?). Its type is {length"
                        + " : int}.",
                error("r = {length = 3}\nx = r.lenght"));
    }

    @Test
    void optionalFields() {
        ok("def f(r) = r.add ?? 1 end\nignore(f(()) + f({add = 2}))");
        assertEquals(
                "this value has type {foo? : int} but it should be a subtype of {foo : int?}",
                error("x = (({} : {foo? : int}) : {foo : int?})"));
        ok("x = (({} : {foo? : int}) : {foo? : int?})");
        ok("x = ({foo = null} : {foo? : int})");
    }

    @Test
    void optionalChains() {
        type(
                "('c.{foo? : 'b.{gni : 'a.{gna? : int}}}) -> int",
                "def x(r) = r?.foo.gni.gna ?? 1 end");
        assertEquals(
                "this value has type 'A? but it should be a subtype of something that is a number"
                        + " type",
                error("x = fun (r) -> r?.foo.gni.gna + 1"));
        ok("x = fun (r) -> r?.foo(123).gni ?? null");
    }

    @Test
    void aHiddenFieldReadWithAQuestionMarkIsNull() {
        // after a spread pattern takes foo away, y?.foo is the access's default: null (typing.ml)
        ok(
                "x = {foo = 123, gni = \"aabb\"}\nlet {foo, ...y} = x\n"
                        + "def same(a, b) = a == b end\nz = same(y?.foo, null)\nignore(foo)");
        type("'A?", "x = {foo = 1}\nlet {foo, ...y} = x\nignore(foo)\nx = y?.foo");
    }

    @Test
    void aFieldDefinedLaterIsAddedToItsValue() {
        assertEquals("{a : int, b : string}", typeOf("x = {a = 1}\nlet x.b = \"s\"", "x"));
        assertEquals(
                "{a : {b : int, c : string}}", typeOf("x = {a = {b = 1}}\nlet x.a.c = \"s\"", "x"));
        assertEquals(
                "This value has type {a : int}, it cannot have method b.",
                error("x = {a = 1}\nlet x.b.c = 2"));
    }

    @Test
    void replacesKeepsTheMethods() {
        type("string.{n : int}", "x = \"a\".{n = 1}\ndef replaces x = \"b\" end");
    }

    @Test
    void aSpreadAddsTheFieldsOfAnother() {
        type("{a : int, b : string}", "r = {b = \"s\"}\nx = {a = 1, ...r}");
        type("{a : int}", "r = {a = \"s\"}\nx = {...r, a = 1}");
    }

    @Test
    void openPutsTheFieldsInScope() {
        type("int", "m = {a = 1}\nopen m\nx = a");
        assertEquals(
                "this value has type int but it should be a subtype of unit",
                error("open 3\nx = 1"));
    }

    @Test
    void fieldsArePolymorphic() {
        ok("m = {id = fun (v) -> v}\nignore(m.id(1))\nignore(m.id(\"a\"))");
    }
}
