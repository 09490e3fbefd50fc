package org.groovecast.liquidsoap.parser;

import static org.groovecast.liquidsoap.lexer.TokenKind.*;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.lexer.Token;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * What definitions and parameters bind, parser.mly's {@code pattern}: names, tuples, lists with one
 * {@code ...rest}, records with {@code a?}, {@code a = p} and a last {@code ...rest}, a value with
 * fields {@code v.{a, b}}; and the field paths of {@code let a.b.c = e}.
 */
final class PatternParser {
    private final TokenStream in;
    private final TypeParser types;

    PatternParser(TokenStream in, TypeParser types) {
        this.in = in;
        this.types = types;
    }

    /** {@code a.b.c}, in {@code let a.b.c = e} and {@code def a.b.c ... end}. */
    Pattern.Var fieldPath() {
        Token first = in.advance();
        List<String> path = new ArrayList<>(List.of(first.text()));
        while (in.peek().kind() == DOT && in.peek(1).kind() == VAR) {
            in.advance();
            path.add(in.advance().text());
        }
        return new Pattern.Var(first.span().to(in.last().span()), List.copyOf(path));
    }

    /** A pattern, and the type written with it ({@code (x : int)}), or null. */
    record Typed(Pattern pattern, TypeAnnotation type) {}

    /**
     * After {@code (}: {@code (pattern : type)} when {@code typed} allows it, else a tuple pattern
     * {@code (a, b)} (and what may follow it, {@code .{...}}).
     */
    Typed parenthesizedPattern(Token open, boolean typed) {
        if (in.peek().kind() != RPAR && in.peek().kind() != COMMA) {
            Pattern first = pattern();
            if (typed && in.accept(COLON)) {
                TypeAnnotation type = types.type();
                in.expectClosing(RPAR, open);
                return new Typed(first, type);
            }
            return new Typed(tupleRest(open, first), null);
        }
        return new Typed(tupleRest(open, null), null);
    }

    /** The rest of a tuple pattern after {@code (} and its first element (if any). */
    private Pattern tupleRest(Token open, Pattern first) {
        List<Pattern> elements = new ArrayList<>();
        if (first != null) elements.add(first);
        while (in.accept(COMMA)) elements.add(pattern());
        in.expectClosing(RPAR, open);
        Pattern tuple = new Pattern.Tuple(open.span().to(in.last().span()), List.copyOf(elements));
        return withFields(tuple);
    }

    Pattern pattern() {
        in.enter(in.peek());
        try {
            Token t = in.peek();
            return switch (t.kind()) {
                case VAR, UNDERSCORE -> {
                    in.advance();
                    String name = t.kind() == VAR ? t.text() : "_";
                    yield withFields(new Pattern.Var(t.span(), List.of(name)));
                }
                case LPAR -> {
                    in.advance();
                    yield parenthesizedPattern(t, false).pattern;
                }
                case LBRA -> {
                    in.advance();
                    yield withFields(listPattern(t));
                }
                case LCUR -> {
                    in.advance();
                    yield recordPattern(t, null, true);
                }
                default -> throw in.unexpected(t, "a pattern");
            };
        } finally {
            in.exit();
        }
    }

    /** {@code p.{a, b}}: the pattern with fields taken from the same value. */
    private Pattern withFields(Pattern base) {
        if (!in.accept(DOT)) return base;
        Token open = in.expectToken(LCUR, "`{` and the fields to bind");
        return recordPattern(open, base, false);
    }

    /** After {@code [}: elements, at most one {@code ...rest}, {@code ]}. */
    private Pattern listPattern(Token open) {
        List<Pattern> before = new ArrayList<>();
        List<Pattern> after = new ArrayList<>();
        Pattern.Spread spread = null;
        if (in.peek().kind() == DOTDOTDOT) {
            spread = spread();
        } else {
            if (in.peek().kind() != RBRA && in.peek().kind() != COMMA) before.add(pattern());
            while (in.peek().kind() == COMMA && in.peek(1).kind() != DOTDOTDOT) {
                in.advance();
                before.add(pattern());
            }
            if (in.peek().kind() == COMMA) {
                in.advance();
                spread = spread();
            }
        }
        if (spread != null && in.accept(COMMA)) {
            if (in.peek().kind() != RBRA && in.peek().kind() != COMMA) after.add(pattern());
            while (in.accept(COMMA)) after.add(pattern());
        }
        in.expectClosing(RBRA, open);
        return new Pattern.ListPattern(
                open.span().to(in.last().span()), List.copyOf(before), spread, List.copyOf(after));
    }

    private Pattern.Spread spread() {
        Token dots = in.advance();
        Token t = in.peek();
        if (t.kind() == VAR || t.kind() == UNDERSCORE) {
            in.advance();
            return new Pattern.Spread(dots.span().to(t.span()), TokenStream.nameOf(t));
        }
        return new Pattern.Spread(dots.span(), "_");
    }

    /** After {@code {}: fields, then {@code ...rest} when {@code spreadAllowed}, {@code }}. */
    private Pattern recordPattern(Token open, Pattern base, boolean spreadAllowed) {
        List<Pattern.FieldPattern> fields = new ArrayList<>();
        Pattern.Spread spread = null;
        while (in.peek().kind() != RCUR) {
            if (spreadAllowed && in.peek().kind() == DOTDOTDOT) {
                spread = spread();
                break;
            }
            Token name = in.expectToken(VAR, "a field name");
            boolean nullable = in.accept(QUESTION);
            Pattern pattern = !nullable && in.accept(GETS) ? pattern() : null;
            fields.add(
                    new Pattern.FieldPattern(
                            name.span().to(in.last().span()), name.text(), nullable, pattern));
            if (!in.accept(COMMA)) break;
        }
        in.expectClosing(RCUR, open);
        Span start = base != null ? base.span() : open.span();
        return new Pattern.RecordPattern(
                start.to(in.last().span()), base, List.copyOf(fields), spread);
    }
}
