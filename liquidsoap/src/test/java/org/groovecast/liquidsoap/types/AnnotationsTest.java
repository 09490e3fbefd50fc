package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Types written in scripts: what they accept and how they print. */
class AnnotationsTest {
    @Test
    void recordsMethodsAndTheirFieldTypes() {
        type("{foo : int}", "x = ({foo = 1} : {foo : int})");
        type(
                "int.{foo : float, gni : string}",
                "x = (1.{foo = 2., gni = \"s\"} : int.{foo : float}.{gni : string})");
        type("int", "x = (3 : {foo : int}.foo)");
        type("int?.{foo : string}", "x = (1.{foo = \"a\"} : int?.{foo : string})");
        // the field that differs is shown, the rest of the record left out as _
        assertEquals(
                "this value has type _.{foo : int} but it should be a subtype of _.{foo : string}",
                error("x = ({foo = 1} : {foo : string})"));
    }

    @Test
    void fieldsWithAJsonName() {
        type("{\"a name\" as foo : int}", "x = ({foo = 1} : {\"a name\" as foo : int})");
    }

    @Test
    void jsonObjects() {
        type(
                "[string * float] as json.object",
                "x = ([(\"a\", 1.)] : [(string * float)] as json.object)");
        type("[string * int] as json.object", "x = ([] : [(string * int)] as json.object)");
    }

    @Test
    void optionalFields() {
        ok("x = ({} : {foo? : int})");
        ok("x = ({foo = 1} : {foo? : int})");
        ok("x = ({foo = null(null)} : {foo? : int?})");
        type("[{foo? : int}]", "x = ([(), {foo = 1}] : [{foo? : int}])");
    }

    @Test
    void functionTypes() {
        type(
                "(int, ?x : string) -> unit",
                "x = (fun (n, ~x=\"\") -> () : (int, ?x : string) -> unit)");
        type("(string) -> int", "def f(_) = 0 end\nx = (f : (string) -> int)");
    }

    @Test
    void anUnderscoreIsAnyType() {
        type("[int]", "x = ([1] : [_])");
        type("int", "let (x : _) = 1");
    }

    @Test
    void aTypedParameter() {
        type("(int) -> int", "def x((n : int)) = n end");
        assertEquals(
                "this value has type string but it should be a subtype of int",
                error("def f((n : int)) = n end\nx = f(\"a\")"));
    }

    @Test
    void aTypedDefinition() {
        type("float", "let (x : float) = 1.");
        assertEquals(
                "this value has type int but it should be a subtype of float",
                error("let (x : float) = 1"));
    }
}
