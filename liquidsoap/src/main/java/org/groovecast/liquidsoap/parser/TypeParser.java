package org.groovecast.liquidsoap.parser;

import static org.groovecast.liquidsoap.lexer.TokenKind.*;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.lexer.Token;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * The type annotations of parser.mly's {@code ty}: names, {@code t?}, {@code [t]}, tuples {@code (a
 * * b)}, functions {@code (a, ?l: b) -> c} (whose result takes the postfix {@code ?} and fields),
 * records {@code {a: t, b?: t, "k" as c: t}}, {@code t.{a: t}}, {@code t.name}, sources {@code
 * source(audio=pcm(stereo), ...)} and {@code [(string * t)] as json.object}.
 */
final class TypeParser {
    private final TokenStream in;

    TypeParser(TokenStream in) {
        this.in = in;
    }

    TypeAnnotation type() {
        in.enter(in.peek());
        try {
            TypeAnnotation type = typePrimary();
            while (true) {
                Token t = in.peek();
                if (t.kind() == QUESTION) {
                    in.advance();
                    type = new TypeAnnotation.Nullable(type.span().to(t.span()), type);
                } else if (t.kind() == DOT && in.peek(1).kind() == VAR) {
                    in.advance();
                    Token name = in.advance();
                    type =
                            new TypeAnnotation.Invoke(
                                    type.span().to(name.span()), type, name.text());
                } else if (t.kind() == DOT || t.kind() == QUESTION_DOT) {
                    in.advance();
                    Token open = in.expectToken(LCUR, "`{` and the fields' types");
                    List<TypeAnnotation.Method> methods = methodTypes(open);
                    TypeAnnotation base =
                            t.kind() == DOT ? type : new TypeAnnotation.Nullable(type.span(), type);
                    type =
                            new TypeAnnotation.WithMethods(
                                    type.span().to(in.last().span()), base, methods);
                } else {
                    return type;
                }
            }
        } finally {
            in.exit();
        }
    }

    private TypeAnnotation typePrimary() {
        Token t = in.advance();
        switch (t.kind()) {
            case UNDERSCORE -> {
                return new TypeAnnotation.Named(t.span(), "_");
            }
            case VAR -> {
                return new TypeAnnotation.Named(t.span(), t.text());
            }
            case VARLPAR -> {
                return sourceType(t);
            }
            case LBRA -> {
                TypeAnnotation of = type();
                in.expectClosing(RBRA, t);
                if (in.peek().kind() != VAR) {
                    return new TypeAnnotation.ListOf(t.span().to(in.last().span()), of);
                }
                return jsonObject(t, of);
            }
            case LPAR -> {
                return parenthesizedType(t);
            }
            case LCUR -> {
                List<TypeAnnotation.Method> methods = methodTypes(t);
                return new TypeAnnotation.RecordType(t.span().to(in.last().span()), methods);
            }
            default -> throw in.unexpected(t, "a type");
        }
    }

    /** {@code [(string * t)] as json.object}. */
    private TypeAnnotation jsonObject(Token open, TypeAnnotation of) {
        Token as = in.expectToken(VAR, "`as`");
        Token json = in.expectToken(VAR, "`json`");
        in.expect(DOT, "`.object`");
        Token object = in.expectToken(VAR, "`object`");
        Span span = open.span().to(in.last().span());
        if (as.text().equals("as")
                && json.text().equals("json")
                && object.text().equals("object")
                && of instanceof TypeAnnotation.Tuple tuple
                && tuple.elements().size() == 2
                && tuple.elements().getFirst() instanceof TypeAnnotation.Named key
                && key.name().equals("string")) {
            return new TypeAnnotation.JsonObject(span, tuple.elements().get(1));
        }
        throw new SyntaxError(span, "invalid type: only `[(string * t)] as json.object` is");
    }

    /** After {@code (}: a tuple type {@code (a * b)} or a function type {@code (a, b) -> c}. */
    private TypeAnnotation parenthesizedType(Token open) {
        List<TypeAnnotation.ArrowArg> args = new ArrayList<>();
        if (in.peek().kind() != RPAR) {
            boolean labelled =
                    in.peek().kind() == QUESTION
                            || (in.peek().kind() == VAR && in.peek(1).kind() == COLON);
            if (!labelled) {
                TypeAnnotation first = type();
                if (in.peek().kind() == TIMES) {
                    List<TypeAnnotation> elements = new ArrayList<>(List.of(first));
                    while (in.accept(TIMES)) elements.add(type());
                    in.expectClosing(RPAR, open);
                    return new TypeAnnotation.Tuple(
                            open.span().to(in.last().span()), List.copyOf(elements));
                }
                args.add(new TypeAnnotation.ArrowArg(first.span(), false, "", first));
            } else {
                args.add(arrowArg());
            }
            while (in.accept(COMMA)) {
                if (in.peek().kind() == RPAR) break;
                args.add(arrowArg());
            }
        }
        in.expectClosing(RPAR, open);
        in.expect(YIELDS, "`->` and the result type (a type in parentheses is a function's)");
        TypeAnnotation result = type();
        return new TypeAnnotation.Arrow(open.span().to(result.span()), List.copyOf(args), result);
    }

    private TypeAnnotation.ArrowArg arrowArg() {
        Token t = in.peek();
        if (t.kind() == QUESTION) {
            in.advance();
            Token label = in.expectToken(VAR, "a label");
            in.expect(COLON, "`:` and a type");
            TypeAnnotation type = type();
            return new TypeAnnotation.ArrowArg(t.span().to(type.span()), true, label.text(), type);
        }
        if (t.kind() == VAR && in.peek(1).kind() == COLON) {
            in.advance();
            in.advance();
            TypeAnnotation type = type();
            return new TypeAnnotation.ArrowArg(t.span().to(type.span()), false, t.text(), type);
        }
        TypeAnnotation type = type();
        return new TypeAnnotation.ArrowArg(type.span(), false, "", type);
    }

    /** After {@code {}: {@code a: t, b?: t, "key" as c: t}, then {@code }}. */
    private List<TypeAnnotation.Method> methodTypes(Token open) {
        List<TypeAnnotation.Method> methods = new ArrayList<>();
        while (in.peek().kind() != RCUR) {
            Token t = in.advance();
            String jsonName = null;
            Token name = t;
            if (t.kind() == STRING) {
                jsonName = TokenStream.text(t);
                Token as = in.expectToken(VAR, "`as` and a field name");
                if (!as.text().equals("as")) {
                    throw new SyntaxError(as.span(), "invalid type: expected `as`");
                }
                name = in.expectToken(VAR, "a field name");
            } else if (t.kind() != VAR) {
                throw in.unexpected(t, "a field name");
            }
            boolean optional = in.accept(QUESTION);
            in.expect(COLON, "`:` and the field's type");
            TypeAnnotation type = type();
            methods.add(
                    new TypeAnnotation.Method(
                            t.span().to(type.span()), name.text(), optional, type, jsonName));
            if (!in.accept(COMMA)) break;
        }
        in.expectClosing(RCUR, open);
        return List.copyOf(methods);
    }

    /** {@code source(audio=pcm(stereo), video=canvas, ...)}, after {@code source(}. */
    private TypeAnnotation sourceType(Token open) {
        List<TypeAnnotation.Track> tracks = new ArrayList<>();
        boolean extensible = false;
        if (in.peek().kind() != RPAR) {
            while (true) {
                if (in.accept(DOTDOTDOT)) {
                    extensible = true;
                    break;
                }
                Token track = in.expectToken(VAR, "a track name or `...`");
                in.expect(GETS, "`=` and the track's content");
                tracks.add(trackContent(track));
                if (!in.accept(COMMA)) break;
            }
        }
        in.expectClosing(RPAR, open);
        return new TypeAnnotation.Source(
                open.span().to(in.last().span()), open.text(), List.copyOf(tracks), extensible);
    }

    /** {@code pcm}, {@code ffmpeg.audio.copy}, {@code pcm(stereo)}, {@code pcm(channels=2)}. */
    private TypeAnnotation.Track trackContent(Token track) {
        StringBuilder content = new StringBuilder();
        List<TypeAnnotation.ContentParam> params = List.of();
        for (int part = 0; part < 3; part++) {
            Token t = in.advance();
            if (t.kind() == VARLPAR) {
                content.append(t.text());
                params = contentParams(t);
                break;
            }
            if (t.kind() != VAR) throw in.unexpected(t, "a content type");
            content.append(t.text());
            if (part == 2 || !in.accept(DOT)) break;
            content.append('.');
        }
        return new TypeAnnotation.Track(
                track.span().to(in.last().span()), track.text(), content.toString(), params);
    }

    private List<TypeAnnotation.ContentParam> contentParams(Token open) {
        List<TypeAnnotation.ContentParam> params = new ArrayList<>();
        while (in.peek().kind() != RPAR) {
            Token t = in.advance();
            String label = "";
            Token value = t;
            if (t.kind() == VAR && in.accept(GETS)) {
                label = t.text();
                value = in.advance();
                if (value.kind() != VAR
                        && value.kind() != STRING
                        && value.kind() != INT
                        && value.kind() != FLOAT) {
                    throw in.unexpected(value, "a value");
                }
            } else if (t.kind() != VAR
                    && t.kind() != INT
                    && t.kind() != FLOAT
                    && t.kind() != STRING) {
                throw in.unexpected(t, "a content parameter");
            }
            boolean quoted = value.kind() == STRING;
            params.add(
                    new TypeAnnotation.ContentParam(
                            t.span().to(value.span()),
                            label,
                            quoted ? TokenStream.text(value) : value.text(),
                            quoted));
            if (!in.accept(COMMA)) break;
        }
        in.expectClosing(RPAR, open);
        return List.copyOf(params);
    }
}
