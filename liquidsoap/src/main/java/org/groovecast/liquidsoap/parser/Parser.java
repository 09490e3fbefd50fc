package org.groovecast.liquidsoap.parser;

import static org.groovecast.liquidsoap.lexer.TokenKind.*;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.lexer.Lexer;
import org.groovecast.liquidsoap.lexer.Preprocessor;
import org.groovecast.liquidsoap.lexer.SourceText;
import org.groovecast.liquidsoap.lexer.Token;
import org.groovecast.liquidsoap.lexer.TokenKind;
import org.groovecast.liquidsoap.syntax.Arg;
import org.groovecast.liquidsoap.syntax.ArgsOf;
import org.groovecast.liquidsoap.syntax.EncoderParam;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.ListElement;
import org.groovecast.liquidsoap.syntax.Param;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.RecordEntry;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.Statement;
import org.groovecast.liquidsoap.syntax.Statement.Decoration;
import org.groovecast.liquidsoap.syntax.Statement.LetKind;
import org.groovecast.liquidsoap.syntax.StringEscapes;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.syntax.TimeSpec;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;
import org.groovecast.liquidsoap.syntax.Warning;

/**
 * Liquidsoap 2.4's grammar (its parser.mly) by recursive descent, with precedence climbing for the
 * operators. Written by hand rather than generated because the messages matter: every error is one
 * located sentence that names what was found and what was expected ({@code unexpected `end`,
 * expected `)` to close the `(` at 3:8}), where a generated LR parser knows only "syntax error";
 * and because the grammar leans on tokens the {@link Preprocessor} makes from line breaks (a call
 * is a name glued to its parenthesis), which a hand-written parser reads as they are.
 *
 * <p>The operators bind as parser.mly's precedence declarations say, from the loosest: {@code ->}
 * (a function's body takes all it can), {@code :=} (right), {@code ? :}, {@code and}, {@code or},
 * {@code not}, comparisons and {@code @}, {@code + - ^ %}, {@code * / mod}, {@code ??}, {@code ?.},
 * {@code ::} (right), {@code !}, {@code .}, then unary minus. Precedence climbing decides each
 * shift or reduce as the LR parser does, comparing the operator ahead with the rule being built: so
 * {@code -x.y} is {@code (-x).y} and the else branch of {@code c ? a : b + 1} is just {@code b}, as
 * in Liquidsoap.
 *
 * <p>Nesting is bounded ({@link #MAX_DEPTH}): a deeper script is refused with a located message
 * rather than overflowing the stack, and the tree it returns is at most twice that deep.
 */
public final class Parser {
    /**
     * How deep expressions, patterns and types may nest, in this file and its includes: over ten
     * times what Liquidsoap's own library and tests use (under 40), and within the 1 MB stack of a
     * Java thread by default.
     */
    public static final int MAX_DEPTH = 512;

    private static final int CONTEXT_FUN_BODY = 1;
    private static final int LEVEL_SET = 2;
    private static final int LEVEL_QUESTION = 3;
    private static final int LEVEL_NOT = 6;
    private static final int LEVEL_COALESCE = 10;
    private static final int LEVEL_QUESTION_DOT = 11;
    private static final int LEVEL_COLONCOLON = 12;
    private static final int LEVEL_GET = 13;
    private static final int CONTEXT_ELSE = 15;
    private static final int LEVEL_UMINUS = 18;

    private final Preprocessor tokens;
    private final Includes includes;
    private final List<Warning> warnings;
    private final Token[] ahead = new Token[3];
    private int buffered;
    private Token last;
    private int depth;

    /**
     * What the last {@code %include} was replaced by: its file's statements, or unit for a missing
     * {@code %include_extra}. A statement that is only that is spliced into its sequence.
     */
    private Expr lastInclude;

    private Parser(SourceText source, Includes includes, List<Warning> warnings, int startDepth) {
        this.tokens = new Preprocessor(new Lexer(source, warnings));
        this.includes = includes;
        this.warnings = warnings;
        this.depth = startDepth;
    }

    /**
     * A whole script. {@code includes} reads {@code %include}d files (null: keep {@link
     * Expr.Include} nodes); warnings are added to the list given.
     */
    public static Expr.Sequence parse(
            SourceText source, Includes includes, List<Warning> warnings, int startDepth) {
        Parser parser = new Parser(source, includes, warnings, startDepth);
        try {
            return parser.program();
        } catch (StackOverflowError e) {
            // Only on a thread with a stack smaller than the default: MAX_DEPTH fits in 1 MB.
            Span at = parser.last != null ? parser.last.span() : parser.peek().span();
            throw new SyntaxError(at, "too deeply nested for this thread's stack");
        }
    }

    public static Expr.Sequence parse(SourceText source, List<Warning> warnings) {
        return parse(source, null, warnings, 0);
    }

    private Expr.Sequence program() {
        Token first = peek();
        if (first.kind() == EOF) return new Expr.Sequence(first.span(), List.of());
        Expr.Sequence program = exprs(false);
        Token end = peek();
        if (end.kind() != EOF) throw unexpected(end, null);
        return program;
    }

    // ---- sequences and definitions

    /**
     * One or more statements ({@code exprs}). In a getter's braces ({@code simple}) the first may
     * not be {@code x = e}, which would be a record.
     */
    private Expr.Sequence exprs(boolean simple) {
        enter(peek());
        Span start = peek().span();
        List<Statement> items = new ArrayList<>();
        boolean first = true;
        while (true) {
            Token t = peek();
            if (t.kind() == OPEN) {
                advance();
                Expr module = expr();
                items.add(new Statement.Open(t.span().to(module.span()), module));
                accept(SEQ);
                if (!startsStatement(peek())) {
                    throw unexpected(peek(), "the statements `open` applies to");
                }
                first = false;
                continue;
            }
            if (isDefinition(t, simple && first)) {
                items.add(definition());
            } else {
                Expr e = expr();
                if (e == lastInclude) {
                    // an included file's definitions are in scope for the rest, as Liquidsoap's
                    if (e instanceof Expr.Sequence included) items.addAll(included.items());
                } else {
                    items.add(e);
                }
            }
            first = false;
            accept(SEQ);
            if (!startsStatement(peek())) break;
        }
        exit();
        return new Expr.Sequence(start.to(last.span()), List.copyOf(items));
    }

    private boolean isDefinition(Token t, boolean explicitOnly) {
        return switch (t.kind()) {
            case LET, LETLBRA, DEF -> true;
            case VAR, UNDERSCORE -> !explicitOnly && peek(1).kind() == GETS;
            default -> false;
        };
    }

    private static boolean startsStatement(Token t) {
        return switch (t.kind()) {
            case OPEN, DEF, LET, LETLBRA, UNDERSCORE -> true;
            default -> startsExpr(t.kind());
        };
    }

    private static boolean startsExpr(TokenKind kind) {
        return switch (kind) {
            case INCLUDE,
                    PP_IFDEF,
                    PP_IFENCODER,
                    PP_IFVERSION,
                    LPAR,
                    UMINUS,
                    INT,
                    NOT,
                    BOOL,
                    FLOAT,
                    STRING,
                    RAW_STRING,
                    BEGIN_INTERPOLATION,
                    VAR,
                    VARLPAR,
                    VARLBRA,
                    LBRA,
                    GET,
                    ENCODER,
                    NULL,
                    LCUR,
                    BEGIN,
                    FUN,
                    WHILE,
                    FOR,
                    TRY,
                    IF,
                    REGEXP,
                    INTERVAL,
                    TIME ->
                    true;
            default -> false;
        };
    }

    private Statement definition() {
        Token t = peek();
        return switch (t.kind()) {
            case LET, LETLBRA -> let();
            case DEF -> def();
            default -> {
                advance();
                String name = t.kind() == UNDERSCORE ? "_" : t.text();
                expect(GETS, "`=`");
                Expr value = expr();
                yield new Statement.Let(
                        t.span().to(value.span()),
                        LetKind.BINDING,
                        Decoration.NONE,
                        List.of(),
                        new Pattern.Var(t.span(), List.of(name)),
                        null,
                        null,
                        value);
            }
        };
    }

    private Statement.Let let() {
        Token let = advance();
        Decoration decoration = decoration(let);
        List<Arg.Labelled> options = List.of();
        if (let.kind() == LETLBRA) options = letOptions(let);
        Pattern pattern;
        TypeAnnotation type = null;
        Token t = peek();
        if (t.kind() == LPAR) {
            advance();
            Typed typed = parenthesizedPattern(t, true);
            pattern = typed.pattern;
            type = typed.type;
        } else if (t.kind() == VAR && peek(1).kind() == DOT && peek(2).kind() == VAR) {
            pattern = fieldPath();
        } else {
            pattern = pattern();
        }
        expect(GETS, "`=`");
        Expr value = expr();
        return new Statement.Let(
                let.span().to(value.span()),
                LetKind.LET,
                decoration,
                options,
                pattern,
                null,
                type,
                value);
    }

    /** {@code let json.parse[json5=true]}: the options, of which json5 is the only one. */
    private List<Arg.Labelled> letOptions(Token let) {
        List<Arg.Labelled> options = new ArrayList<>();
        do {
            Token name = expectToken(VAR, "an option name");
            Expr value = accept(GETS) ? expr() : new Expr.Var(name.span(), name.text());
            options.add(new Arg.Labelled(name.span().to(value.span()), name.text(), value));
        } while (accept(COMMA));
        expect(RBRA, "`]`");
        if (options.size() > 1 || !options.getFirst().label().equals("json5")) {
            throw new SyntaxError(
                    let.span().to(last.span()),
                    "invalid option `"
                            + options.getFirst().label()
                            + "` of `let json.parse[...]`: json5 is the only one");
        }
        return List.copyOf(options);
    }

    /** {@code a.b.c}, in {@code let a.b.c = e} and {@code def a.b.c ... end}. */
    private Pattern.Var fieldPath() {
        Token first = advance();
        List<String> path = new ArrayList<>(List.of(first.text()));
        while (peek().kind() == DOT && peek(1).kind() == VAR) {
            advance();
            path.add(advance().text());
        }
        return new Pattern.Var(first.span().to(last.span()), List.copyOf(path));
    }

    private Statement.Let def() {
        Token def = advance();
        Decoration decoration = decoration(def);
        Token t = peek();
        Pattern.Var name;
        List<Param> params = null;
        TypeAnnotation type = null;
        switch (t.kind()) {
            case LPAR -> {
                advance();
                Token variable = optionalName("a name");
                name = new Pattern.Var(variable.span(), List.of(nameOf(variable)));
                expect(COLON, "`:` and a type");
                type = type();
                expect(RPAR, "`)`");
            }
            case VARLPAR -> {
                advance();
                name = new Pattern.Var(nameSpan(t), List.of(t.text()));
                params = params(t);
            }
            case UNDERSCORE -> {
                advance();
                name = new Pattern.Var(t.span(), List.of("_"));
            }
            case VAR -> {
                advance();
                List<String> path = new ArrayList<>(List.of(t.text()));
                Span end = t.span();
                while (accept(DOT)) {
                    Token part = peek();
                    if (part.kind() == VAR) {
                        advance();
                        path.add(part.text());
                        end = part.span();
                    } else if (part.kind() == VARLPAR) {
                        advance();
                        path.add(part.text());
                        end = nameSpan(part);
                        params = params(part);
                        break;
                    } else {
                        throw unexpected(part, "a name");
                    }
                }
                name = new Pattern.Var(t.span().to(end), List.copyOf(path));
            }
            default -> throw unexpected(t, "the name to define");
        }
        accept(GETS);
        Expr.Sequence body = exprs(false);
        expectClosing(END, def);
        return new Statement.Let(
                def.span().to(last.span()),
                LetKind.DEF,
                decoration,
                List.of(),
                name,
                params,
                type,
                body);
    }

    private static Decoration decoration(Token t) {
        return switch (t.extra()) {
            case "rec" -> Decoration.RECURSIVE;
            case "replaces" -> Decoration.REPLACES;
            case "eval" -> Decoration.EVAL;
            case "json.parse" -> Decoration.JSON_PARSE;
            case "yaml.parse" -> Decoration.YAML_PARSE;
            case "xml.parse" -> Decoration.XML_PARSE;
            case "sqlite.row" -> Decoration.SQLITE_ROW;
            case "sqlite.query" -> Decoration.SQLITE_QUERY;
            default -> Decoration.NONE;
        };
    }

    // ---- parameters

    /** The parameters after {@code f(}, and the {@code )}. */
    private List<Param> params(Token open) {
        List<Param> params = new ArrayList<>();
        while (peek().kind() != RPAR) {
            params.add(param());
            if (!accept(COMMA)) break;
        }
        expectClosing(RPAR, open);
        return List.copyOf(params);
    }

    private Param param() {
        Token t = peek();
        switch (t.kind()) {
            case TILD -> {
                advance();
                Token next = peek();
                if (next.kind() == LPAR) {
                    advance();
                    Token label = expectToken(VAR, "a label");
                    expect(COLON, "`:` and a type");
                    TypeAnnotation type = type();
                    expect(RPAR, "`)`");
                    Expr fallback = fallback();
                    return new Param.Labelled(
                            t.span().to(last.span()), label.text(), null, type, fallback);
                }
                Token label = expectToken(VAR, "a label");
                Pattern as = null;
                TypeAnnotation type = null;
                if (peek().kind() == GETS && peek(1).kind() == UNDERSCORE) {
                    advance();
                    Token underscore = advance();
                    as = new Pattern.Var(underscore.span(), List.of("_"));
                    warnings.add(
                            new Warning(
                                    t.span().to(underscore.span()),
                                    "deprecated: use `~" + label.text() + ":_`"));
                } else if (accept(COLON)) {
                    Token open = peek();
                    if (open.kind() == LPAR) {
                        advance();
                        Typed typed = parenthesizedPattern(open, true);
                        as = typed.pattern;
                        type = typed.type;
                    } else {
                        as = pattern();
                    }
                }
                Expr fallback = fallback();
                return new Param.Labelled(
                        t.span().to(last.span()), label.text(), as, type, fallback);
            }
            case LPAR -> {
                advance();
                Typed typed = parenthesizedPattern(t, true);
                Expr fallback = fallback();
                return new Param.Positional(
                        t.span().to(last.span()), typed.pattern, typed.type, fallback);
            }
            case ARGS_OF -> {
                return argsOf();
            }
            default -> {
                Pattern pattern = pattern();
                Expr fallback = fallback();
                return new Param.Positional(
                        pattern.span().to(last.span()), pattern, null, fallback);
            }
        }
    }

    private Expr fallback() {
        return accept(GETS) ? expr() : null;
    }

    /** {@code %argsof(f)}, {@code %argsof(a.b[x, !y])}. */
    private ArgsOf argsOf() {
        Token t = advance();
        Token open = expectToken(LPAR, "`(`");
        List<String> path = new ArrayList<>();
        List<String> only = new ArrayList<>();
        List<String> except = new ArrayList<>();
        while (true) {
            Token part = peek();
            if (part.kind() == VAR) {
                advance();
                path.add(part.text());
                if (accept(DOT)) continue;
                break;
            }
            if (part.kind() == VARLBRA) {
                advance();
                path.add(part.text());
                do {
                    if (accept(GET)) {
                        except.add(expectToken(VAR, "a parameter name").text());
                    } else {
                        only.add(expectToken(VAR, "a parameter name").text());
                    }
                } while (accept(COMMA));
                expect(RBRA, "`]`");
                break;
            }
            throw unexpected(part, "the name of a function");
        }
        expectClosing(RPAR, open);
        return new ArgsOf(
                t.span().to(last.span()),
                String.join(".", path),
                List.copyOf(only),
                List.copyOf(except));
    }

    // ---- patterns

    private record Typed(Pattern pattern, TypeAnnotation type) {}

    /**
     * After {@code (}: {@code (pattern : type)} when {@code typed} allows it, else a tuple pattern
     * {@code (a, b)} (and what may follow it, {@code .{...}}).
     */
    private Typed parenthesizedPattern(Token open, boolean typed) {
        if (peek().kind() != RPAR && peek().kind() != COMMA) {
            Pattern first = pattern();
            if (typed && accept(COLON)) {
                TypeAnnotation type = type();
                expectClosing(RPAR, open);
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
        while (accept(COMMA)) elements.add(pattern());
        expectClosing(RPAR, open);
        Pattern tuple = new Pattern.Tuple(open.span().to(last.span()), List.copyOf(elements));
        return withFields(tuple);
    }

    private Pattern pattern() {
        enter(peek());
        try {
            Token t = peek();
            return switch (t.kind()) {
                case VAR, UNDERSCORE -> {
                    advance();
                    String name = t.kind() == VAR ? t.text() : "_";
                    yield withFields(new Pattern.Var(t.span(), List.of(name)));
                }
                case LPAR -> {
                    advance();
                    yield parenthesizedPattern(t, false).pattern;
                }
                case LBRA -> {
                    advance();
                    yield withFields(listPattern(t));
                }
                case LCUR -> {
                    advance();
                    yield recordPattern(t, null, true);
                }
                default -> throw unexpected(t, "a pattern");
            };
        } finally {
            exit();
        }
    }

    /** {@code p.{a, b}}: the pattern with fields taken from the same value. */
    private Pattern withFields(Pattern base) {
        if (!accept(DOT)) return base;
        Token open = expectToken(LCUR, "`{` and the fields to bind");
        return recordPattern(open, base, false);
    }

    /** After {@code [}: elements, at most one {@code ...rest}, {@code ]}. */
    private Pattern listPattern(Token open) {
        List<Pattern> before = new ArrayList<>();
        List<Pattern> after = new ArrayList<>();
        Pattern.Spread spread = null;
        if (peek().kind() == DOTDOTDOT) {
            spread = spread();
        } else {
            if (peek().kind() != RBRA && peek().kind() != COMMA) before.add(pattern());
            while (peek().kind() == COMMA && peek(1).kind() != DOTDOTDOT) {
                advance();
                before.add(pattern());
            }
            if (peek().kind() == COMMA) {
                advance();
                spread = spread();
            }
        }
        if (spread != null && accept(COMMA)) {
            if (peek().kind() != RBRA && peek().kind() != COMMA) after.add(pattern());
            while (accept(COMMA)) after.add(pattern());
        }
        expectClosing(RBRA, open);
        return new Pattern.ListPattern(
                open.span().to(last.span()), List.copyOf(before), spread, List.copyOf(after));
    }

    private Pattern.Spread spread() {
        Token dots = advance();
        Token t = peek();
        if (t.kind() == VAR || t.kind() == UNDERSCORE) {
            advance();
            return new Pattern.Spread(dots.span().to(t.span()), nameOf(t));
        }
        return new Pattern.Spread(dots.span(), "_");
    }

    /** After {@code {}: fields, then {@code ...rest} when {@code spreadAllowed}, {@code }}. */
    private Pattern recordPattern(Token open, Pattern base, boolean spreadAllowed) {
        List<Pattern.FieldPattern> fields = new ArrayList<>();
        Pattern.Spread spread = null;
        while (peek().kind() != RCUR) {
            if (spreadAllowed && peek().kind() == DOTDOTDOT) {
                spread = spread();
                break;
            }
            Token name = expectToken(VAR, "a field name");
            boolean nullable = accept(QUESTION);
            Pattern pattern = !nullable && accept(GETS) ? pattern() : null;
            fields.add(
                    new Pattern.FieldPattern(
                            name.span().to(last.span()), name.text(), nullable, pattern));
            if (!accept(COMMA)) break;
        }
        expectClosing(RCUR, open);
        Span start = base != null ? base.span() : open.span();
        return new Pattern.RecordPattern(start.to(last.span()), base, List.copyOf(fields), spread);
    }

    // ---- types

    private TypeAnnotation type() {
        enter(peek());
        try {
            TypeAnnotation type = typePrimary();
            while (true) {
                Token t = peek();
                if (t.kind() == QUESTION) {
                    advance();
                    type = new TypeAnnotation.Nullable(type.span().to(t.span()), type);
                } else if (t.kind() == DOT && peek(1).kind() == VAR) {
                    advance();
                    Token name = advance();
                    type =
                            new TypeAnnotation.Invoke(
                                    type.span().to(name.span()), type, name.text());
                } else if (t.kind() == DOT || t.kind() == QUESTION_DOT) {
                    advance();
                    Token open = expectToken(LCUR, "`{` and the fields' types");
                    List<TypeAnnotation.Method> methods = methodTypes(open);
                    TypeAnnotation base =
                            t.kind() == DOT ? type : new TypeAnnotation.Nullable(type.span(), type);
                    type =
                            new TypeAnnotation.WithMethods(
                                    type.span().to(last.span()), base, methods);
                } else {
                    return type;
                }
            }
        } finally {
            exit();
        }
    }

    private TypeAnnotation typePrimary() {
        Token t = advance();
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
                expectClosing(RBRA, t);
                if (peek().kind() != VAR) {
                    return new TypeAnnotation.ListOf(t.span().to(last.span()), of);
                }
                return jsonObject(t, of);
            }
            case LPAR -> {
                return parenthesizedType(t);
            }
            case LCUR -> {
                List<TypeAnnotation.Method> methods = methodTypes(t);
                return new TypeAnnotation.RecordType(t.span().to(last.span()), methods);
            }
            default -> throw unexpected(t, "a type");
        }
    }

    /** {@code [(string * t)] as json.object}. */
    private TypeAnnotation jsonObject(Token open, TypeAnnotation of) {
        Token as = expectToken(VAR, "`as`");
        Token json = expectToken(VAR, "`json`");
        expect(DOT, "`.object`");
        Token object = expectToken(VAR, "`object`");
        Span span = open.span().to(last.span());
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
        if (peek().kind() != RPAR) {
            boolean labelled =
                    peek().kind() == QUESTION || (peek().kind() == VAR && peek(1).kind() == COLON);
            if (!labelled) {
                TypeAnnotation first = type();
                if (peek().kind() == TIMES) {
                    List<TypeAnnotation> elements = new ArrayList<>(List.of(first));
                    while (accept(TIMES)) elements.add(type());
                    expectClosing(RPAR, open);
                    return new TypeAnnotation.Tuple(
                            open.span().to(last.span()), List.copyOf(elements));
                }
                args.add(new TypeAnnotation.ArrowArg(first.span(), false, "", first));
            } else {
                args.add(arrowArg());
            }
            while (accept(COMMA)) {
                if (peek().kind() == RPAR) break;
                args.add(arrowArg());
            }
        }
        expectClosing(RPAR, open);
        expect(YIELDS, "`->` and the result type (a type in parentheses is a function's)");
        TypeAnnotation result = type();
        return new TypeAnnotation.Arrow(open.span().to(result.span()), List.copyOf(args), result);
    }

    private TypeAnnotation.ArrowArg arrowArg() {
        Token t = peek();
        if (t.kind() == QUESTION) {
            advance();
            Token label = expectToken(VAR, "a label");
            expect(COLON, "`:` and a type");
            TypeAnnotation type = type();
            return new TypeAnnotation.ArrowArg(t.span().to(type.span()), true, label.text(), type);
        }
        if (t.kind() == VAR && peek(1).kind() == COLON) {
            advance();
            advance();
            TypeAnnotation type = type();
            return new TypeAnnotation.ArrowArg(t.span().to(type.span()), false, t.text(), type);
        }
        TypeAnnotation type = type();
        return new TypeAnnotation.ArrowArg(type.span(), false, "", type);
    }

    /** After {@code {}: {@code a: t, b?: t, "key" as c: t}, then {@code }}. */
    private List<TypeAnnotation.Method> methodTypes(Token open) {
        List<TypeAnnotation.Method> methods = new ArrayList<>();
        while (peek().kind() != RCUR) {
            Token t = advance();
            String jsonName = null;
            Token name = t;
            if (t.kind() == STRING) {
                jsonName = text(t);
                Token as = expectToken(VAR, "`as` and a field name");
                if (!as.text().equals("as")) {
                    throw new SyntaxError(as.span(), "invalid type: expected `as`");
                }
                name = expectToken(VAR, "a field name");
            } else if (t.kind() != VAR) {
                throw unexpected(t, "a field name");
            }
            boolean optional = accept(QUESTION);
            expect(COLON, "`:` and the field's type");
            TypeAnnotation type = type();
            methods.add(
                    new TypeAnnotation.Method(
                            t.span().to(type.span()), name.text(), optional, type, jsonName));
            if (!accept(COMMA)) break;
        }
        expectClosing(RCUR, open);
        return List.copyOf(methods);
    }

    /** {@code source(audio=pcm(stereo), video=canvas, ...)}, after {@code source(}. */
    private TypeAnnotation sourceType(Token open) {
        List<TypeAnnotation.Track> tracks = new ArrayList<>();
        boolean extensible = false;
        if (peek().kind() != RPAR) {
            while (true) {
                if (accept(DOTDOTDOT)) {
                    extensible = true;
                    break;
                }
                Token track = expectToken(VAR, "a track name or `...`");
                expect(GETS, "`=` and the track's content");
                tracks.add(trackContent(track));
                if (!accept(COMMA)) break;
            }
        }
        expectClosing(RPAR, open);
        return new TypeAnnotation.Source(
                open.span().to(last.span()), open.text(), List.copyOf(tracks), extensible);
    }

    /** {@code pcm}, {@code ffmpeg.audio.copy}, {@code pcm(stereo)}, {@code pcm(channels=2)}. */
    private TypeAnnotation.Track trackContent(Token track) {
        StringBuilder content = new StringBuilder();
        List<TypeAnnotation.ContentParam> params = List.of();
        for (int part = 0; part < 3; part++) {
            Token t = advance();
            if (t.kind() == VARLPAR) {
                content.append(t.text());
                params = contentParams(t);
                break;
            }
            if (t.kind() != VAR) throw unexpected(t, "a content type");
            content.append(t.text());
            if (part == 2 || !accept(DOT)) break;
            content.append('.');
        }
        return new TypeAnnotation.Track(
                track.span().to(last.span()), track.text(), content.toString(), params);
    }

    private List<TypeAnnotation.ContentParam> contentParams(Token open) {
        List<TypeAnnotation.ContentParam> params = new ArrayList<>();
        while (peek().kind() != RPAR) {
            Token t = advance();
            String label = "";
            Token value = t;
            if (t.kind() == VAR && accept(GETS)) {
                label = t.text();
                value = advance();
                if (value.kind() != VAR
                        && value.kind() != STRING
                        && value.kind() != INT
                        && value.kind() != FLOAT) {
                    throw unexpected(value, "a value");
                }
            } else if (t.kind() != VAR
                    && t.kind() != INT
                    && t.kind() != FLOAT
                    && t.kind() != STRING) {
                throw unexpected(t, "a content parameter");
            }
            boolean quoted = value.kind() == STRING;
            params.add(
                    new TypeAnnotation.ContentParam(
                            t.span().to(value.span()),
                            label,
                            quoted ? text(value) : value.text(),
                            quoted));
            if (!accept(COMMA)) break;
        }
        expectClosing(RPAR, open);
        return List.copyOf(params);
    }

    // ---- expressions

    private Expr expr() {
        return expr(0);
    }

    /**
     * An expression inside a rule of precedence {@code context}: operators that bind tighter are
     * taken, looser ones left to the caller (LR's shift or reduce), an equal one by its
     * associativity.
     */
    private Expr expr(int context) {
        enter(peek());
        int wraps = 0;
        try {
            Expr left = prefix();
            while (true) {
                Token t = peek();
                int level = level(t.kind());
                if (level == 0 || level < context) break;
                if (level == context) {
                    if (level == LEVEL_COALESCE) {
                        throw new SyntaxError(
                                t.span(),
                                "unexpected `??`: write `a ?? (b ?? c)`, `??` does not chain");
                    }
                    if (level != LEVEL_SET && level != LEVEL_COLONCOLON) break;
                }
                enter(t);
                wraps++;
                left = infix(left, t);
            }
            return left;
        } finally {
            depth -= wraps;
            exit();
        }
    }

    /** How tightly a binary or postfix operator binds; 0 for what is not one. */
    private static int level(TokenKind kind) {
        return switch (kind) {
            case SET -> LEVEL_SET;
            case QUESTION -> LEVEL_QUESTION;
            case AND -> 4;
            case OR -> 5;
            case BIN1, AT -> 7;
            case BIN2, MINUS -> 8;
            case BIN3, TIMES -> 9;
            case COALESCE -> LEVEL_COALESCE;
            case QUESTION_DOT -> LEVEL_QUESTION_DOT;
            case COLONCOLON -> LEVEL_COLONCOLON;
            case DOT -> 14;
            default -> 0;
        };
    }

    private Expr infix(Expr left, Token t) {
        advance();
        switch (t.kind()) {
            case SET -> {
                Expr right = expr(LEVEL_SET);
                return new Expr.Set(left.span().to(right.span()), left, right);
            }
            case QUESTION -> {
                Expr then = expr();
                expect(COLON, "`:` and the value when the condition is false");
                Expr otherwise = expr(CONTEXT_ELSE);
                return new Expr.InlineIf(left.span().to(otherwise.span()), left, then, otherwise);
            }
            case AND, OR -> {
                Expr right = expr(level(t.kind()));
                return boolOp(t.text(), left, right);
            }
            case BIN1, BIN2, BIN3, TIMES, MINUS -> {
                Expr right = expr(level(t.kind()));
                return new Expr.Infix(left.span().to(right.span()), left, t.text(), right);
            }
            case AT -> {
                Expr right = expr(level(t.kind()));
                return new Expr.At(left.span().to(right.span()), left, right);
            }
            case COALESCE -> {
                Expr right = expr(LEVEL_COALESCE);
                return new Expr.Coalesce(left.span().to(right.span()), left, right);
            }
            case COLONCOLON -> {
                Expr right = expr(LEVEL_COLONCOLON);
                return new Expr.Cons(left.span().to(right.span()), left, right);
            }
            case QUESTION_DOT -> {
                return invoke(left, true);
            }
            default -> {
                Token next = peek();
                if (next.kind() == LCUR) {
                    advance();
                    List<RecordEntry> entries = recordEntries(next);
                    return new Expr.RecordLit(left.span().to(last.span()), left, entries);
                }
                if (next.kind() == VARLBRA) {
                    advance();
                    Expr.Invoke field =
                            new Expr.Invoke(
                                    left.span().to(nameSpan(next)), left, next.text(), false);
                    Expr key = expr();
                    expectClosing(RBRA, next);
                    return new Expr.Assoc(left.span().to(last.span()), field, key);
                }
                return invoke(left, false);
            }
        }
    }

    /** {@code a and b and c} is one chain, as parser.mly's actions make it. */
    private static Expr boolOp(String op, Expr left, Expr right) {
        List<Expr> operands = new ArrayList<>();
        if (left instanceof Expr.BoolOp l && l.operator().equals(op)) {
            operands.addAll(l.operands());
        } else {
            operands.add(left);
        }
        if (right instanceof Expr.BoolOp r && r.operator().equals(op)) {
            operands.addAll(r.operands());
        } else {
            operands.add(right);
        }
        return new Expr.BoolOp(left.span().to(right.span()), op, List.copyOf(operands));
    }

    /** After {@code .} or {@code ?.}: a field, or a method call. */
    private Expr invoke(Expr target, boolean optional) {
        Token t = advance();
        if (t.kind() == VAR) {
            return new Expr.Invoke(target.span().to(t.span()), target, t.text(), optional);
        }
        if (t.kind() == VARLPAR) {
            List<Arg> args = args(t);
            return new Expr.MethodCall(
                    target.span().to(last.span()), target, t.text(), args, optional);
        }
        throw unexpected(t, "a field name");
    }

    private Expr prefix() {
        Token t = peek();
        switch (t.kind()) {
            case INT -> {
                advance();
                return new Expr.IntLit(t.span(), t.text());
            }
            case FLOAT -> {
                advance();
                return new Expr.FloatLit(t.span(), t.text());
            }
            case BOOL -> {
                advance();
                return new Expr.BoolLit(t.span(), t.text().equals("true"));
            }
            case STRING -> {
                advance();
                return new Expr.StringLit(t.span(), t.extra().charAt(0), t.text());
            }
            case RAW_STRING -> {
                advance();
                return new Expr.RawStringLit(t.span(), t.extra(), t.text());
            }
            case REGEXP -> {
                advance();
                return new Expr.RegexpLit(t.span(), t.text(), t.extra());
            }
            case NULL -> {
                advance();
                return new Expr.NullLit(t.span());
            }
            case TIME -> {
                advance();
                return new Expr.TimeLit(t.span(), time(t, t.text()));
            }
            case INTERVAL -> {
                advance();
                int dash = t.text().indexOf('-');
                return new Expr.IntervalLit(
                        t.span(),
                        time(t, t.text().substring(0, dash).strip()),
                        time(t, t.text().substring(dash + 1).strip()));
            }
            case VAR -> {
                advance();
                return new Expr.Var(t.span(), t.text());
            }
            case VARLPAR -> {
                advance();
                Expr function = new Expr.Var(nameSpan(t), t.text());
                List<Arg> args = args(t);
                return new Expr.Call(t.span().to(last.span()), function, args);
            }
            case VARLBRA -> {
                advance();
                Expr target = new Expr.Var(nameSpan(t), t.text());
                Expr key = expr();
                expectClosing(RBRA, t);
                return new Expr.Assoc(t.span().to(last.span()), target, key);
            }
            case BEGIN_INTERPOLATION -> {
                return interpolation();
            }
            case LPAR -> {
                return parenthesized();
            }
            case LBRA -> {
                return list();
            }
            case LCUR -> {
                return brace();
            }
            case UMINUS -> {
                advance();
                Expr operand = expr(LEVEL_UMINUS);
                return new Expr.Negative(t.span().to(operand.span()), operand);
            }
            case NOT -> {
                advance();
                Expr operand = expr(LEVEL_NOT);
                return new Expr.Not(t.span().to(operand.span()), operand);
            }
            case GET -> {
                advance();
                Expr operand = expr(LEVEL_GET);
                return new Expr.Get(t.span().to(operand.span()), operand);
            }
            case ENCODER -> {
                return encoder();
            }
            case BEGIN -> {
                advance();
                Expr.Sequence body = exprs(false);
                expectClosing(END, t);
                return new Expr.Block(t.span().to(last.span()), body);
            }
            case FUN -> {
                advance();
                Token open = expectToken(LPAR, "`(` and the parameters");
                List<Param> params = params(open);
                expect(YIELDS, "`->` and the function's body");
                Expr body = expr(CONTEXT_FUN_BODY);
                return new Expr.Fun(t.span().to(body.span()), params, body);
            }
            case WHILE -> {
                advance();
                Expr condition = expr();
                expect(DO, "`do`");
                Expr.Sequence body = exprs(false);
                expectClosing(END, t);
                return new Expr.While(t.span().to(last.span()), condition, body);
            }
            case FOR -> {
                return forLoop();
            }
            case TRY -> {
                return tryCatch();
            }
            case IF -> {
                return ifThen();
            }
            case INCLUDE -> {
                advance();
                Expr.Include include =
                        new Expr.Include(t.span(), Expr.IncludeKind.valueOf(t.extra()), t.text());
                if (includes == null) return include;
                Expr.Sequence included =
                        includes.include(include.span(), include.kind(), include.name(), depth);
                lastInclude = included != null ? included : new Expr.TupleLit(t.span(), List.of());
                return lastInclude;
            }
            case PP_IFDEF -> {
                return ifDef();
            }
            case PP_IFENCODER -> {
                advance();
                Token encoder = expectToken(ENCODER, "an encoder, as `%mp3`");
                Expr.Sequence then = exprs(false);
                Expr.Sequence otherwise = accept(PP_ELSE) ? exprs(false) : null;
                expectClosing(PP_ENDIF, t);
                return new Expr.IfEncoder(
                        t.span().to(last.span()),
                        t.extra().equals("negative"),
                        encoder.text(),
                        then,
                        otherwise);
            }
            case PP_IFVERSION -> {
                return ifVersion();
            }
            default -> throw unexpected(t, "an expression");
        }
    }

    private Expr interpolation() {
        Token begin = advance();
        List<Expr> parts = new ArrayList<>();
        while (peek().kind() != END_INTERPOLATION) {
            Token t = peek();
            if (t.kind() == INTERPOLATED_STRING) {
                advance();
                parts.add(new Expr.StringLit(t.span(), t.extra().charAt(0), t.text()));
            } else {
                parts.add(expr());
            }
        }
        if (parts.isEmpty()) throw unexpected(peek(), "an expression in `#{}`");
        advance();
        return new Expr.InterpolatedString(
                begin.span().to(last.span()), begin.extra().charAt(0), List.copyOf(parts));
    }

    private Expr parenthesized() {
        Token open = advance();
        if (accept(RPAR)) return new Expr.TupleLit(open.span().to(last.span()), List.of());
        Expr first = expr();
        if (accept(COLON)) {
            TypeAnnotation type = type();
            expectClosing(RPAR, open);
            return new Expr.Cast(open.span().to(last.span()), first, type);
        }
        if (peek().kind() == COMMA) {
            List<Expr> elements = new ArrayList<>(List.of(first));
            while (accept(COMMA)) elements.add(expr());
            expectClosing(RPAR, open);
            return new Expr.TupleLit(open.span().to(last.span()), List.copyOf(elements));
        }
        expectClosing(RPAR, open);
        return new Expr.Parens(open.span().to(last.span()), first);
    }

    private Expr list() {
        Token open = advance();
        List<ListElement> elements = new ArrayList<>();
        while (peek().kind() != RBRA) {
            Token t = peek();
            if (accept(DOTDOTDOT)) {
                Expr value = expr();
                elements.add(new ListElement.Spread(t.span().to(value.span()), value));
            } else {
                elements.add(new ListElement.Item(expr()));
            }
            if (!accept(COMMA)) break;
        }
        expectClosing(RBRA, open);
        return new Expr.ListLit(open.span().to(last.span()), List.copyOf(elements));
    }

    /** {@code {}}, a record {@code {a = 1, ...r}}, or a getter {@code { e }}. */
    private Expr brace() {
        Token open = advance();
        if (accept(RCUR)) return new Expr.RecordLit(open.span().to(last.span()), null, List.of());
        Token t = peek();
        if (t.kind() == DOTDOTDOT || (t.kind() == VAR && peek(1).kind() == GETS)) {
            List<RecordEntry> entries = recordEntries(open);
            return new Expr.RecordLit(open.span().to(last.span()), null, entries);
        }
        Expr.Sequence body = exprs(true);
        expectClosing(RCUR, open);
        return new Expr.Getter(open.span().to(last.span()), body);
    }

    /** {@code a = 1, ...r}, an optional trailing comma, {@code }}. */
    private List<RecordEntry> recordEntries(Token open) {
        List<RecordEntry> entries = new ArrayList<>();
        do {
            Token t = peek();
            if (accept(DOTDOTDOT)) {
                Expr value = expr();
                entries.add(new RecordEntry.Spread(t.span().to(value.span()), value));
            } else if (t.kind() == VAR && peek(1).kind() == GETS) {
                advance();
                advance();
                Expr value = expr();
                entries.add(new RecordEntry.Field(t.span().to(value.span()), t.text(), value));
            } else {
                throw unexpected(t, "a field `name = value` or `...record`");
            }
        } while (accept(COMMA) && peek().kind() != RCUR);
        expectClosing(RCUR, open);
        return List.copyOf(entries);
    }

    /** The arguments after {@code f(}, and the {@code )}. */
    private List<Arg> args(Token open) {
        List<Arg> args = new ArrayList<>();
        while (peek().kind() != RPAR) {
            Token t = peek();
            if (t.kind() == VAR && peek(1).kind() == GETS) {
                advance();
                advance();
                Expr value = expr();
                args.add(new Arg.Labelled(t.span().to(value.span()), t.text(), value));
            } else if (t.kind() == ARGS_OF) {
                args.add(argsOf());
            } else {
                args.add(new Arg.Positional(expr()));
            }
            if (!accept(COMMA)) break;
        }
        expectClosing(RPAR, open);
        return List.copyOf(args);
    }

    private Expr encoder() {
        Token t = advance();
        List<EncoderParam> params = new ArrayList<>();
        if (peek().kind() == LPAR) {
            Token open = advance();
            while (peek().kind() != RPAR) {
                params.add(encoderParam());
                if (!accept(COMMA)) break;
            }
            expectClosing(RPAR, open);
        }
        return new Expr.Encoder(t.span().to(last.span()), t.text(), List.copyOf(params));
    }

    private EncoderParam encoderParam() {
        Token t = peek();
        if (t.kind() == ENCODER) return new EncoderParam.Nested((Expr.Encoder) encoder());
        if (t.kind() != VAR && t.kind() != STRING) {
            throw unexpected(t, "an encoder parameter (`name=value`, `name` or `%encoder`)");
        }
        advance();
        boolean quoted = t.kind() == STRING;
        String name = quoted ? text(t) : t.text();
        if (accept(GETS)) {
            Expr value = expr();
            return new EncoderParam.Labelled(t.span().to(value.span()), name, quoted, value);
        }
        return new EncoderParam.Flag(t.span(), name, quoted);
    }

    private Expr forLoop() {
        Token t = advance();
        Token variable = optionalName("the loop variable");
        expect(GETS, "`=`");
        Expr from = expr();
        if (accept(TO)) {
            Expr to = expr();
            expect(DO, "`do`");
            Expr.Sequence body = exprs(false);
            expectClosing(END, t);
            return new Expr.For(t.span().to(last.span()), nameOf(variable), from, to, body);
        }
        expect(DO, "`to` or `do`");
        Expr.Sequence body = exprs(false);
        expectClosing(END, t);
        return new Expr.ForEach(t.span().to(last.span()), nameOf(variable), from, body);
    }

    private Expr tryCatch() {
        Token t = advance();
        Expr.Sequence body = exprs(false);
        if (accept(FINALLY)) {
            Expr.Sequence ensure = exprs(false);
            expectClosing(END, t);
            return new Expr.Try(t.span().to(last.span()), body, "_", null, null, ensure);
        }
        expect(CATCH, "`catch` or `finally`");
        Token variable = optionalName("the error's name");
        Expr.ListLit errors = null;
        if (accept(COLON)) {
            Token open = peek();
            if (open.kind() != LBRA) throw unexpected(open, "a list of error kinds, `[...]`");
            errors = (Expr.ListLit) list();
        }
        expect(DO, "`do`");
        Expr.Sequence handler = exprs(false);
        Expr.Sequence ensure = accept(FINALLY) ? exprs(false) : null;
        expectClosing(END, t);
        return new Expr.Try(
                t.span().to(last.span()), body, nameOf(variable), errors, handler, ensure);
    }

    private Expr ifThen() {
        Token t = advance();
        Expr.Sequence condition = exprs(false);
        expect(THEN, "`then`");
        Expr.Sequence then = exprs(false);
        List<Expr.ElseIf> elsifs = new ArrayList<>();
        while (accept(ELSIF)) {
            Expr.Sequence c = exprs(false);
            expect(THEN, "`then`");
            elsifs.add(new Expr.ElseIf(c, exprs(false)));
        }
        Expr.Sequence otherwise = accept(ELSE) ? exprs(false) : null;
        expectClosing(END, t);
        return new Expr.If(
                t.span().to(last.span()), condition, then, List.copyOf(elsifs), otherwise);
    }

    private Expr ifDef() {
        Token t = advance();
        StringBuilder name = new StringBuilder(expectToken(VAR, "a name").text());
        while (accept(DOT)) name.append('.').append(expectToken(VAR, "a name").text());
        Expr.Sequence then = exprs(false);
        Expr.Sequence otherwise = accept(PP_ELSE) ? exprs(false) : null;
        expectClosing(PP_ENDIF, t);
        return new Expr.IfDef(
                t.span().to(last.span()),
                t.extra().equals("negative"),
                name.toString(),
                then,
                otherwise);
    }

    private Expr ifVersion() {
        Token t = advance();
        Token op = advance();
        if (op.kind() != BIN1 || op.text().equals("!=")) {
            throw unexpected(op, "a comparison (`==`, `<`, `<=`, `>`, `>=`)");
        }
        Token version = advance();
        if (version.kind() != VERSION && version.kind() != INT && version.kind() != FLOAT) {
            throw unexpected(version, "a version, as 2.4.0");
        }
        Expr.Sequence then = exprs(false);
        Expr.Sequence otherwise = accept(PP_ELSE) ? exprs(false) : null;
        expectClosing(PP_ENDIF, t);
        return new Expr.IfVersion(
                t.span().to(last.span()), op.text(), version.text(), then, otherwise);
    }

    /**
     * A time literal's parts, {@code 1w2h3m4s} or {@code 12h30}: digits only (Liquidsoap refuses
     * the underscores its lexer lets into them).
     */
    private static TimeSpec time(Token t, String text) {
        Integer[] parts = new Integer[4];
        int i = 0;
        int n = text.length();
        while (i < n) {
            int j = i;
            while (j < n && Character.isDigit(text.charAt(j))) j++;
            if (j == i) throw new SyntaxError(t.span(), "invalid time `" + t.text() + "`");
            int value;
            try {
                value = Integer.parseInt(text, i, j, 10);
            } catch (NumberFormatException e) {
                throw new SyntaxError(t.span(), "time `" + t.text() + "` is out of range");
            }
            int unit = j < n ? "whms".indexOf(text.charAt(j)) : 2;
            if (unit < 0) throw new SyntaxError(t.span(), "invalid time `" + t.text() + "`");
            parts[unit] = value;
            i = j + 1;
        }
        return new TimeSpec(parts[0], parts[1], parts[2], parts[3]);
    }

    // ---- tokens

    private Token peek() {
        return peek(0);
    }

    private Token peek(int k) {
        while (buffered <= k) ahead[buffered++] = tokens.next();
        return ahead[k];
    }

    private Token advance() {
        Token t = peek();
        System.arraycopy(ahead, 1, ahead, 0, buffered - 1);
        ahead[--buffered] = null;
        last = t;
        return t;
    }

    private boolean accept(TokenKind kind) {
        if (peek().kind() != kind) return false;
        advance();
        return true;
    }

    private void expect(TokenKind kind, String what) {
        expectToken(kind, what);
    }

    private Token expectToken(TokenKind kind, String what) {
        Token t = peek();
        if (t.kind() != kind) throw unexpected(t, what);
        return advance();
    }

    /** The token that closes what {@code open} opened, or an error that points at both. */
    private void expectClosing(TokenKind kind, Token open) {
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

    private Token optionalName(String what) {
        Token t = peek();
        if (t.kind() != VAR && t.kind() != UNDERSCORE) throw unexpected(t, what);
        return advance();
    }

    private static String nameOf(Token t) {
        return t.kind() == UNDERSCORE ? "_" : t.text();
    }

    /** The name's own span in a {@code f(} or {@code l[} token. */
    private static Span nameSpan(Token t) {
        Span s = t.span();
        int width = t.text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        return new Span(s.file(), s.line(), s.column(), s.line(), s.column() + width);
    }

    /** A string token's value as text. */
    private static String text(Token t) {
        return StringEscapes.text(StringEscapes.render(t.text(), t.extra().charAt(0)));
    }

    private SyntaxError unexpected(Token t, String expected) {
        String found =
                switch (t.kind()) {
                    case EOF -> "unexpected end of file";
                    case END_INTERPOLATION -> "unexpected end of the string";
                    default -> "unexpected " + t.describe();
                };
        return new SyntaxError(
                t.span(), expected == null ? found : found + ", expected " + expected);
    }

    private void enter(Token at) {
        if (++depth > MAX_DEPTH) {
            throw new SyntaxError(
                    at.span(), "too deeply nested (more than " + MAX_DEPTH + " levels)");
        }
    }

    private void exit() {
        depth--;
    }
}
