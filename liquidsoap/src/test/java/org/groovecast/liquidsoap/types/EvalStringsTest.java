package org.groovecast.liquidsoap.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Statement;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;
import org.junit.jupiter.api.Test;

/** What a {@code let eval} evaluates, checked in the scope its script left (checkEval). */
class EvalStringsTest {
    private static final TypeChecker CHECKER = TypeChecker.of(Signatures.of(Check.BUILTINS));

    private static Expr.Sequence parse(String text) {
        return Scripts.parse("eval", text, Path.of("."), List.of()).program();
    }

    /** The annotation of {@code let eval (x : type) = ...}. */
    private static TypeAnnotation annotation(String type) {
        return ((Statement.Let) parse("let eval (x : " + type + ") = \"\"").items().getFirst())
                .type();
    }

    private static String refusal(String text, TypeChecker.Checked script, String type) {
        return assertThrows(
                        TypeError.class,
                        () ->
                                CHECKER.checkEval(
                                        parse(text),
                                        script,
                                        type == null ? null : annotation(type)))
                .getMessage();
    }

    @Test
    void theStringSeesTheScriptsTopLevelNamesWithTheirTypes() {
        TypeChecker.Checked script = CHECKER.check(parse("y = 1\ndef f(s) = s ^ \"!\" end"), null);
        CHECKER.checkEval(parse("ignore(y + 1)\nprint(f(\"a\"))"), script, null);
        assertEquals(
                "eval:1:11: this value has type string but it should be a subtype of int",
                refusal("ignore(y + \"a\")", script, null));
        assertEquals(
                "eval:1:8: this value has type int but it should be a subtype of string",
                refusal("print(f(1))", script, null));
    }

    @Test
    void aNameNothingDefinesIsRefused() {
        TypeChecker.Checked script = CHECKER.check(parse("y = 1"), null);
        assertEquals("eval:1:7: Undefined variable z", refusal("ignore(z)", script, null));
    }

    @Test
    void theValueMustBeOfTheAnnotatedType() {
        TypeChecker.Checked script = CHECKER.check(parse("y = 1"), null);
        CHECKER.checkEval(parse("y + 1"), script, annotation("int"));
        CHECKER.checkEval(parse("x = 2\n[x, y]"), script, annotation("[int]"));
        assertEquals(
                "eval:1:0: this value has type string but it should be a subtype of int",
                refusal("\"a\"", script, "int"));
        assertEquals(
                "eval:1:0: this value has type [int] but it should be a subtype of [string]",
                refusal("x = 2\n[x, y]", script, "[string]"));
    }
}
