package org.groovecast.liquidsoap.lexer;

import org.groovecast.liquidsoap.syntax.Span;

/**
 * A token: its kind, its text (a name, a number, an operator, a string's raw text, an encoder's
 * name, an included file...), what else its kind needs in {@code extra} (a string's quote, a raw
 * string's id, a regular expression's flags, a {@code let}'s or {@code def}'s decoration, an
 * include's kind, a negative {@code %ifndef}), and where it is.
 */
public record Token(TokenKind kind, String text, String extra, Span span) {

    public Token(TokenKind kind, String text, Span span) {
        this(kind, text, "", span);
    }

    public Token withKind(TokenKind other) {
        return new Token(other, text, extra, span);
    }

    /** How an error message names this token (a long text cut to its start). */
    public String describe() {
        return switch (kind) {
            case VAR, INT, FLOAT, BIN1, BIN2, BIN3, VERSION, TIME, INTERVAL, BOOL, DEF, LET ->
                    quote(text);
            case VARLPAR -> quote(text + "(");
            case VARLBRA -> quote(text + "[");
            case ENCODER -> quote("%" + text);
            default -> kind.description();
        };
    }

    private static String quote(String s) {
        return "`" + (s.length() > 40 ? s.substring(0, 37) + "..." : s) + "`";
    }
}
