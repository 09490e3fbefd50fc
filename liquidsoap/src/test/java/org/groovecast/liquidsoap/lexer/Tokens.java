package org.groovecast.liquidsoap.lexer;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Warning;

/** Tokens of a snippet, for the lexer's and preprocessor's tests. */
final class Tokens {
    private Tokens() {}

    /** The lexer's tokens, {@code KIND} or {@code KIND:text}, up to the end of the file. */
    static List<String> lexed(String text) {
        Lexer lexer = new Lexer(new SourceText("t.liq", text), new ArrayList<>());
        List<String> out = new ArrayList<>();
        for (Token t = lexer.next(); t.kind() != TokenKind.EOF; t = lexer.next()) {
            out.add(show(t));
        }
        return out;
    }

    /** The same after the preprocessor (what the parser reads). */
    static List<String> preprocessed(String text) {
        Preprocessor p =
                new Preprocessor(new Lexer(new SourceText("t.liq", text), new ArrayList<>()));
        List<String> out = new ArrayList<>();
        for (Token t = p.next(); t.kind() != TokenKind.EOF; t = p.next()) out.add(show(t));
        return out;
    }

    static List<Token> all(String text, List<Warning> warnings) {
        Lexer lexer = new Lexer(new SourceText("t.liq", text), warnings);
        List<Token> out = new ArrayList<>();
        for (Token t = lexer.next(); t.kind() != TokenKind.EOF; t = lexer.next()) out.add(t);
        return out;
    }

    private static String show(Token t) {
        return t.text().isEmpty() ? t.kind().name() : t.kind() + ":" + t.text();
    }
}
