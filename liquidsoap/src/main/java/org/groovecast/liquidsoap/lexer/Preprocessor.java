package org.groovecast.liquidsoap.lexer;

import static org.groovecast.liquidsoap.lexer.TokenKind.*;

/**
 * The newline-sensitive rewrites of Liquidsoap 2.4's preprocessor.ml, between the lexer and the
 * parser; what comes out has no line breaks left.
 *
 * <ul>
 *   <li>A minus is binary ({@link TokenKind#MINUS}) only right after a number, a name, {@code )} or
 *       {@code }}, with no line break between: {@code x - 1} subtracts, {@code x\n-1} is two
 *       expressions, so is {@code l[0] -1}.
 *   <li>A name (or {@code _}, or {@code null}) right before {@code (} with no line break between is
 *       one token, {@link TokenKind#VARLPAR}: {@code f(x)} and {@code f (x)} call f, {@code f\n(x)}
 *       is f then (x). The same with {@code [}, {@link TokenKind#VARLBRA}: {@code l[0]}.
 * </ul>
 *
 * The grammar needs these to tell a call from two expressions in a row, and a definition {@code def
 * f(x)} from {@code def f} of a value {@code (x)}.
 */
public final class Preprocessor {
    private final Lexer lexer;
    private boolean binaryMinus;
    private Token held;

    public Preprocessor(Lexer lexer) {
        this.lexer = lexer;
    }

    public Token next() {
        while (true) {
            if (held == null) {
                Token t = read();
                switch (t.kind()) {
                    case PP_ENDL -> {}
                    case VAR, UNDERSCORE, NULL -> held = t;
                    default -> {
                        return t;
                    }
                }
                continue;
            }
            Token name = held;
            held = null;
            if (name.kind() != VAR && name.kind() != UNDERSCORE && name.kind() != NULL) {
                return name;
            }
            String called =
                    switch (name.kind()) {
                        case UNDERSCORE -> "_";
                        case NULL -> "_null";
                        default -> name.text();
                    };
            Token after = read();
            switch (after.kind()) {
                case LPAR -> {
                    return new Token(VARLPAR, called, name.span().to(after.span()));
                }
                case LBRA -> {
                    if (!called.equals("in")) {
                        return new Token(VARLBRA, called, name.span().to(after.span()));
                    }
                    held = after;
                }
                case PP_ENDL -> {}
                default -> held = after;
            }
            return name;
        }
    }

    private Token read() {
        Token t = lexer.next();
        switch (t.kind()) {
            case INT, FLOAT, VAR, RPAR, RCUR -> {
                binaryMinus = true;
                return t;
            }
            case MINUS -> {
                boolean binary = binaryMinus;
                binaryMinus = false;
                return binary ? t : t.withKind(UMINUS);
            }
            default -> {
                binaryMinus = false;
                return t;
            }
        }
    }
}
