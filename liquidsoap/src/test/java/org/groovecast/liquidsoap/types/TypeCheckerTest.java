package org.groovecast.liquidsoap.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.parser.Scripts;
import org.junit.jupiter.api.Test;

/** The entry point: builtins, a prelude in Liquidsoap, a script after it. */
class TypeCheckerTest {
    private static ParsedScript parse(String name, String text) {
        return Scripts.parse(name, text, Path.of("."), List.of());
    }

    @Test
    void aScriptIsCheckedInWhatAPreludeLeft() {
        TypeChecker checker = TypeChecker.of(Signatures.of(Map.of("print", "('a) -> unit")));
        TypeChecker.Checked prelude =
                checker.check(parse("prelude.liq", "def twice(x) = x * 2 end\nstation = \"r\""));
        TypeChecker.Checked script =
                checker.check(parse("s.liq", "y = twice(21)\nprint(station)"), prelude);
        assertEquals("int", script.typeOf("y"));
        assertEquals("(int) -> int", script.typeOf("twice"));
        TypeError e =
                assertThrows(
                        TypeError.class,
                        () -> checker.check(parse("s.liq", "y = twice(\"a\")"), prelude));
        assertEquals(
                "s.liq:1:10: this value has type string but it should be a subtype of int",
                e.getMessage());
    }

    @Test
    void aScriptCannotChangeWhatAnotherScriptSeesOfThePrelude() {
        TypeChecker checker = TypeChecker.of(Signatures.of(Map.of("ref", "('a) -> ref('a)")));
        TypeChecker.Checked prelude = checker.check(parse("p.liq", "r = ref([])"));
        checker.check(parse("a.liq", "r.set([1])"), prelude);
        // a second script still finds r's element unknown: the first one's use did not stick
        checker.check(parse("b.liq", "r.set([\"a\"])"), prelude);
    }

    @Test
    void checkEachGoesOnAfterAnError() {
        TypeChecker checker = TypeChecker.of(Signatures.none());
        TypeChecker.Report r =
                checker.checkEach(
                        parse("t.liq", "x = 1 + \"a\"\ny = x\nz = 2 + \"b\"\nw = 3"), null);
        assertEquals(2, r.errors().size());
        assertEquals("t.liq:1:8", r.errors().get(0).span().toString());
        assertEquals("t.liq:3:8", r.errors().get(1).span().toString());
        assertEquals("int", r.checked().typeOf("w"));
    }

    @Test
    void checkEachDefinesTheFieldOfAFailedDottedDefinition() {
        TypeChecker checker = TypeChecker.of(Signatures.none());
        TypeChecker.Report r =
                checker.checkEach(
                        parse("t.liq", "m = {a = 1}\nlet m.b = 1 + \"x\"\nc = m.b\nd = m.a + 1"),
                        null);
        // only the definition fails; m.b is then anything, so c and d check
        assertEquals(1, r.errors().size());
        assertEquals("int", r.checked().typeOf("d"));
    }

    @Test
    void theLanguagesOwnBuiltinsMayBeReplaced() {
        TypeChecker checker = TypeChecker.of(Signatures.of(Map.of("+", "(int, int) -> int")));
        assertThrows(TypeError.class, () -> checker.check(parse("t.liq", "x = 1. + 2.")));
    }
}
