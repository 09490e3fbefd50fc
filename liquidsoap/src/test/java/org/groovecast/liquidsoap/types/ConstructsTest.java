package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.located;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.groovecast.liquidsoap.types.Check.typeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The constructs Liquidsoap rewrites into builtins, typed as their rewriting is. */
class ConstructsTest {
    @Test
    void conditionals() {
        assertEquals(
                "this value has type int but it should be a subtype of bool",
                error("x = if 1 then 2 else 3 end"));
        // without else, the other branch is unit
        assertEquals(
                "t.liq:1:4: this value has type unit but it should be a subtype of int",
                located("x = if true then 2 end"));
        type("string", "x = if true then \"a\" elsif false then \"b\" else \"c\" end");
        type("int", "x = true ? 1 : 2");
        assertEquals(
                "this value has type string but it should be a subtype of bool",
                error("x = false ? true : \"bar\""));
    }

    @Test
    void loops() {
        ok("for i = 1 to 10 do print(i) end");
        ok("x = ref(0)\nwhile x() < 10 do x := x() + 1 end");
        assertEquals(
                "this value has type () -> int but it should be a subtype of {bool}",
                error("while 1 do print(1) end"));
        assertEquals(
                "this value has type string but it should be a subtype of int",
                error("for i = \"a\" to 10 do print(i) end"));
    }

    @Test
    void tryCatch() {
        type("int", "x = try 1 catch e do 2 end");
        type("string", "x = try \"a\" catch e do e.message end");
        type("int", "x = try 1 catch e : [error.register(\"bogus\")] do 2 finally print(3) end");
        assertEquals(
                "this value has type [int] but it should be a subtype of [error]?",
                error("x = try 1 catch e : [3] do 2 end"));
    }

    @Test
    void stringsAndInterpolation() {
        type("string", "x = \"a #{1} b #{[1]} c\"");
        type("string", "x = \"a\" ^ \"b\"");
        assertEquals(
                "this value has type int but it should be a subtype of string",
                error("x = \"a\" ^ 1"));
    }

    @Test
    void predicatesRegexpsAndAssoc() {
        type("() -> bool", "x = {8h-12h}");
        type("bool", "x = 10h");
        type("bool", "x = r/a+/i.test(\"aa\")");
        type("string", "m = [(\"title\", \"t\")]\nx = m[\"title\"]");
        type("[int]", "x = 1 :: [2]");
        type("int", "x = 3 @ fun (v) -> v + 1");
    }

    @Test
    void references() {
        type("int", "r = ref(1)\nr := 2\nx = !r");
        assertEquals(
                "this value has type string but it should be a subtype of int",
                error("r = ref(1)\nr := \"a\""));
    }

    @Test
    void parsedDefinitions() {
        type("{name : string}", "let json.parse (x : {name : string}) = \"{}\"");
        assertEquals(
                "this value has type int but it should be a subtype of string",
                error("let json.parse (x : {name : string}) = 3"));
        type("'A", "let json.parse x = \"{}\"");
        type("int", "let eval x = \"1 + 2\"\nx = x + 1");
    }

    @Test
    void warnings() {
        TypeChecker.Checked c = Check.checked("def f(x) = x end\nf(1)\nsine()\nf\nx = 1");
        assertEquals(3, c.warnings().size());
        assertEquals(
                "t.liq:2:0: warning: This expression is returning a value that is ignored. Do you"
                        + " need to use its return value? If not, you can use the `ignore()`"
                        + " operator.",
                c.warnings().get(0).toString());
        assertEquals(
                "t.liq:3:0: warning: This source is unused, maybe it needs to be connected to an"
                        + " output.",
                c.warnings().get(1).toString());
        assertEquals(
                "t.liq:4:0: warning: Trying to ignore a function, which is of type ('A) -> 'A. Did"
                        + " you forget to apply it to arguments?",
                c.warnings().get(2).toString());
        assertEquals("int", typeOf("x = 1\nignore(2)", "x"));
    }

    @Test
    void anUndefinedVariableIsNamedWithTheNearestDefined() {
        assertEquals(
                "t.liq:2:8: Undefined variable amplfy (did you mean amplify?)",
                located("s = sine()\nx = 1 + amplfy(1., s)"));
        assertEquals("Undefined variable zzzz", error("x = zzzz"));
    }
}
