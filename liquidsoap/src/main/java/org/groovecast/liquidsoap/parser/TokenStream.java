package org.groovecast.liquidsoap.parser;

import static org.groovecast.liquidsoap.lexer.TokenKind.END_INTERPOLATION;
import static org.groovecast.liquidsoap.lexer.TokenKind.EOF;
import static org.groovecast.liquidsoap.lexer.TokenKind.UNDERSCORE;
import static org.groovecast.liquidsoap.lexer.TokenKind.VAR;

import java.nio.charset.StandardCharsets;
import org.groovecast.liquidsoap.lexer.Preprocessor;
import org.groovecast.liquidsoap.lexer.Token;
import org.groovecast.liquidsoap.lexer.TokenKind;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.StringEscapes;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/**
 * The parser's view of the tokens, shared by its parts: up to three tokens ahead, the last one read
 * (where a node ends), the messages of what was expected, and the bound on nesting.
 */
final class TokenStream {
    private final Preprocessor tokens;
    private final Token[] ahead = new Token[3];
    private int buffered;
    private Token last;
    private int depth;

    TokenStream(Preprocessor tokens, int startDepth) {
        this.tokens = tokens;
        this.depth = startDepth;
    }

    Token peek() {
        return peek(0);
    }

    Token peek(int k) {
        while (buffered <= k) ahead[buffered++] = tokens.next();
        return ahead[k];
    }

    Token advance() {
        Token t = peek();
        System.arraycopy(ahead, 1, ahead, 0, buffered - 1);
        ahead[--buffered] = null;
        last = t;
        return t;
    }

    /** The last token read; null before the first. */
    Token last() {
        return last;
    }

    boolean accept(TokenKind kind) {
        if (peek().kind() != kind) return false;
        advance();
        return true;
    }

    void expect(TokenKind kind, String what) {
        expectToken(kind, what);
    }

    Token expectToken(TokenKind kind, String what) {
        Token t = peek();
        if (t.kind() != kind) throw unexpected(t, what);
        return advance();
    }

    /** The token that closes what {@code open} opened, or an error that points at both. */
    void expectClosing(TokenKind kind, Token open) {
        Token t = peek();
        if (t.kind() == kind) {
            advance();
            return;
        }
        throw unexpected(
                t,
                kind.description()
                        + " to close the "
                        + open.describe()
                        + " at "
                        + open.span().line()
                        + ":"
                        + open.span().column());
    }

    /** A name or {@code _} (parser.mly's {@code optvar}). */
    Token optionalName(String what) {
        Token t = peek();
        if (t.kind() != VAR && t.kind() != UNDERSCORE) throw unexpected(t, what);
        return advance();
    }

    SyntaxError unexpected(Token t, String expected) {
        String found =
                switch (t.kind()) {
                    case EOF -> "unexpected end of file";
                    case END_INTERPOLATION -> "unexpected end of the string";
                    default -> "unexpected " + t.describe();
                };
        return new SyntaxError(
                t.span(), expected == null ? found : found + ", expected " + expected);
    }

    /** One level deeper, or the error when that is over {@link Parser#MAX_DEPTH}. */
    void enter(Token at) {
        if (++depth > Parser.MAX_DEPTH) {
            throw new SyntaxError(
                    at.span(), "too deeply nested (more than " + Parser.MAX_DEPTH + " levels)");
        }
    }

    void exit() {
        depth--;
    }

    void exit(int levels) {
        depth -= levels;
    }

    int depth() {
        return depth;
    }

    static String nameOf(Token t) {
        return t.kind() == UNDERSCORE ? "_" : t.text();
    }

    /** The name's own span in a {@code f(} or {@code l[} token. */
    static Span nameSpan(Token t) {
        Span s = t.span();
        int width = t.text().getBytes(StandardCharsets.UTF_8).length;
        return new Span(s.file(), s.line(), s.column(), s.line(), s.column() + width);
    }

    /** A string token's value as text. */
    static String text(Token t) {
        return StringEscapes.text(StringEscapes.render(t.text(), t.extra().charAt(0)));
    }
}
