package org.groovecast.liquidsoap.lexer;

import static org.groovecast.liquidsoap.lexer.Tokens.preprocessed;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The newline-sensitive rewrites between the lexer and the parser (preprocessor.ml's). */
class PreprocessorTest {

    @Test
    void aNameGluedToItsParenthesisIsACall() {
        assertEquals(List.of("VARLPAR:f", "VAR:x", "RPAR:)"), preprocessed("f(x)"));
        assertEquals(List.of("VARLPAR:f", "VAR:x", "RPAR:)"), preprocessed("f (x)"));
    }

    @Test
    void aLineBreakBetweenMakesTwoExpressions() {
        assertEquals(List.of("VAR:f", "LPAR:(", "VAR:x", "RPAR:)"), preprocessed("f\n(x)"));
    }

    @Test
    void aCommentKeepsTheCallTogether() {
        assertEquals(List.of("VARLPAR:f", "VAR:x", "RPAR:)"), preprocessed("f # c\n(x)"));
    }

    @Test
    void underscoreAndNullAreNamesBeforeAParenthesis() {
        assertEquals(
                List.of("VARLPAR:_", "RPAR:)", "VARLPAR:_null", "RPAR:)"),
                preprocessed("_() null()"));
    }

    @Test
    void aNameGluedToItsBracketIsAnIndex() {
        assertEquals(List.of("VARLBRA:l", "INT:0", "RBRA:]"), preprocessed("l[0]"));
        assertEquals(List.of("VAR:in", "LBRA:[", "RBRA:]"), preprocessed("in []"));
        assertEquals(List.of("VAR:l", "LBRA:[", "INT:0", "RBRA:]"), preprocessed("l\n[0]"));
    }

    @Test
    void successiveNamesAreEachChecked() {
        assertEquals(List.of("VAR:a", "VARLPAR:b", "RPAR:)"), preprocessed("a b()"));
    }

    @Test
    void minusIsBinaryAfterAnOperandOnTheSameLine() {
        assertEquals(List.of("VAR:x", "MINUS:-", "INT:1"), preprocessed("x - 1"));
        assertEquals(List.of("INT:1", "MINUS:-", "INT:1"), preprocessed("1 -1"));
        assertEquals(List.of("RPAR:)", "MINUS:-", "INT:1"), preprocessed(") - 1"));
        assertEquals(List.of("RCUR:}", "MINUS:-", "INT:1"), preprocessed("} - 1"));
        assertEquals(List.of("FLOAT:1.", "MINUS:-", "INT:1"), preprocessed("1. - 1"));
    }

    @Test
    void minusIsUnaryElsewhere() {
        assertEquals(List.of("VAR:x", "UMINUS:-", "INT:1"), preprocessed("x\n-1"));
        assertEquals(List.of("RBRA:]", "UMINUS:-", "INT:1"), preprocessed("] - 1"));
        assertEquals(List.of("LPAR:(", "UMINUS:-", "INT:1"), preprocessed("(-1"));
        assertEquals(List.of("UMINUS:-", "UMINUS:-", "INT:1"), preprocessed("- -1"));
        assertEquals(List.of("STRING:a", "UMINUS:-", "INT:1"), preprocessed("\"a\" -1"));
    }
}
