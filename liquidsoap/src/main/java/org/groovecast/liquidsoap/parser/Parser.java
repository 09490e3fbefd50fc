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
 *
 * <p>This is parser.mly's {@code program}. Its other entry points read strings at run time ({@code
 * annotate:} URIs and playlist metadata, {@code time.predicate}, FFmpeg decoder parameters, the
 * interactive loop); they come with the functions that use them.
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

    private final TokenStream in;
    private final TypeParser types;
    private final PatternParser patterns;
    private final Includes includes;
    private final List<Warning> warnings;

    /**
     * What the last {@code %include} was replaced by: its file's statements, or unit for a missing
     * {@code %include_extra}. A statement that is only that is spliced into its sequence.
     */
    private Expr lastInclude;

    private Parser(SourceText source, Includes includes, List<Warning> warnings, int startDepth) {
        this.in = new TokenStream(new Preprocessor(new Lexer(source, warnings)), startDepth);
        this.types = new TypeParser(in);
        this.patterns = new PatternParser(in, types);
        this.includes = includes;
        this.warnings = warnings;
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
            Token last = parser.in.last();
            Span at = last != null ? last.span() : parser.in.peek().span();
            throw new SyntaxError(at, "too deeply nested for this thread's stack");
        }
    }

    public static Expr.Sequence parse(SourceText source, List<Warning> warnings) {
        return parse(source, null, warnings, 0);
    }

    private Expr.Sequence program() {
        Token first = in.peek();
        if (first.kind() == EOF) return new Expr.Sequence(first.span(), List.of());
        Expr.Sequence program = exprs(false);
        Token end = in.peek();
        if (end.kind() != EOF) throw in.unexpected(end, null);
        return program;
    }

    // ---- sequences and definitions

    /**
     * One or more statements ({@code exprs}). In a getter's braces ({@code simple}) the first may
     * not be {@code x = e}, which would be a record.
     */
    private Expr.Sequence exprs(boolean simple) {
        in.enter(in.peek());
        Span start = in.peek().span();
        List<Statement> items = new ArrayList<>();
        boolean first = true;
        while (true) {
            Token t = in.peek();
            if (t.kind() == OPEN) {
                in.advance();
                Expr module = expr();
                items.add(new Statement.Open(t.span().to(module.span()), module));
                in.accept(SEQ);
                if (!startsStatement(in.peek())) {
                    throw in.unexpected(in.peek(), "the statements `open` applies to");
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
            in.accept(SEQ);
            if (!startsStatement(in.peek())) break;
        }
        in.exit();
        return new Expr.Sequence(start.to(in.last().span()), List.copyOf(items));
    }

    private boolean isDefinition(Token t, boolean explicitOnly) {
        return switch (t.kind()) {
            case LET, LETLBRA, DEF -> true;
            case VAR, UNDERSCORE -> !explicitOnly && in.peek(1).kind() == GETS;
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
        Token t = in.peek();
        return switch (t.kind()) {
            case LET, LETLBRA -> let();
            case DEF -> def();
            default -> {
                in.advance();
                String name = t.kind() == UNDERSCORE ? "_" : t.text();
                in.expect(GETS, "`=`");
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
        Token let = in.advance();
        Decoration decoration = decoration(let);
        List<Arg.Labelled> options = List.of();
        if (let.kind() == LETLBRA) options = letOptions(let);
        Pattern pattern;
        TypeAnnotation type = null;
        Token t = in.peek();
        if (t.kind() == LPAR) {
            in.advance();
            PatternParser.Typed typed = patterns.parenthesizedPattern(t, true);
            pattern = typed.pattern();
            type = typed.type();
        } else if (t.kind() == VAR && in.peek(1).kind() == DOT && in.peek(2).kind() == VAR) {
            pattern = patterns.fieldPath();
        } else {
            pattern = patterns.pattern();
        }
        in.expect(GETS, "`=`");
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
            Token name = in.expectToken(VAR, "an option name");
            Expr value = in.accept(GETS) ? expr() : new Expr.Var(name.span(), name.text());
            options.add(new Arg.Labelled(name.span().to(value.span()), name.text(), value));
        } while (in.accept(COMMA));
        in.expect(RBRA, "`]`");
        if (options.size() > 1 || !options.getFirst().label().equals("json5")) {
            throw new SyntaxError(
                    let.span().to(in.last().span()),
                    "invalid option `"
                            + options.getFirst().label()
                            + "` of `let json.parse[...]`: json5 is the only one");
        }
        return List.copyOf(options);
    }

    private Statement.Let def() {
        Token def = in.advance();
        Decoration decoration = decoration(def);
        Token t = in.peek();
        Pattern.Var name;
        List<Param> params = null;
        TypeAnnotation type = null;
        switch (t.kind()) {
            case LPAR -> {
                in.advance();
                Token variable = in.optionalName("a name");
                name = new Pattern.Var(variable.span(), List.of(TokenStream.nameOf(variable)));
                in.expect(COLON, "`:` and a type");
                type = types.type();
                in.expect(RPAR, "`)`");
            }
            case VARLPAR -> {
                in.advance();
                name = new Pattern.Var(TokenStream.nameSpan(t), List.of(t.text()));
                params = params(t);
            }
            case UNDERSCORE -> {
                in.advance();
                name = new Pattern.Var(t.span(), List.of("_"));
            }
            case VAR -> {
                in.advance();
                List<String> path = new ArrayList<>(List.of(t.text()));
                Span end = t.span();
                while (in.accept(DOT)) {
                    Token part = in.peek();
                    if (part.kind() == VAR) {
                        in.advance();
                        path.add(part.text());
                        end = part.span();
                    } else if (part.kind() == VARLPAR) {
                        in.advance();
                        path.add(part.text());
                        end = TokenStream.nameSpan(part);
                        params = params(part);
                        break;
                    } else {
                        throw in.unexpected(part, "a name");
                    }
                }
                name = new Pattern.Var(t.span().to(end), List.copyOf(path));
            }
            default -> throw in.unexpected(t, "the name to define");
        }
        in.accept(GETS);
        Expr.Sequence body = exprs(false);
        in.expectClosing(END, def);
        return new Statement.Let(
                def.span().to(in.last().span()),
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
        while (in.peek().kind() != RPAR) {
            params.add(param());
            if (!in.accept(COMMA)) break;
        }
        in.expectClosing(RPAR, open);
        return List.copyOf(params);
    }

    private Param param() {
        Token t = in.peek();
        switch (t.kind()) {
            case TILD -> {
                in.advance();
                Token next = in.peek();
                if (next.kind() == LPAR) {
                    in.advance();
                    Token label = in.expectToken(VAR, "a label");
                    in.expect(COLON, "`:` and a type");
                    TypeAnnotation type = types.type();
                    in.expect(RPAR, "`)`");
                    Expr fallback = fallback();
                    return new Param.Labelled(
                            t.span().to(in.last().span()), label.text(), null, type, fallback);
                }
                Token label = in.expectToken(VAR, "a label");
                Pattern as = null;
                TypeAnnotation type = null;
                if (in.peek().kind() == GETS && in.peek(1).kind() == UNDERSCORE) {
                    in.advance();
                    Token underscore = in.advance();
                    as = new Pattern.Var(underscore.span(), List.of("_"));
                    warnings.add(
                            new Warning(
                                    t.span().to(underscore.span()),
                                    "deprecated: use `~" + label.text() + ":_`"));
                } else if (in.accept(COLON)) {
                    Token open = in.peek();
                    if (open.kind() == LPAR) {
                        in.advance();
                        PatternParser.Typed typed = patterns.parenthesizedPattern(open, true);
                        as = typed.pattern();
                        type = typed.type();
                    } else {
                        as = patterns.pattern();
                    }
                }
                Expr fallback = fallback();
                return new Param.Labelled(
                        t.span().to(in.last().span()), label.text(), as, type, fallback);
            }
            case LPAR -> {
                in.advance();
                PatternParser.Typed typed = patterns.parenthesizedPattern(t, true);
                Expr fallback = fallback();
                return new Param.Positional(
                        t.span().to(in.last().span()), typed.pattern(), typed.type(), fallback);
            }
            case ARGS_OF -> {
                return argsOf();
            }
            default -> {
                Pattern pattern = patterns.pattern();
                Expr fallback = fallback();
                return new Param.Positional(
                        pattern.span().to(in.last().span()), pattern, null, fallback);
            }
        }
    }

    private Expr fallback() {
        return in.accept(GETS) ? expr() : null;
    }

    /** {@code %argsof(f)}, {@code %argsof(a.b[x, !y])}. */
    private ArgsOf argsOf() {
        Token t = in.advance();
        Token open = in.expectToken(LPAR, "`(`");
        List<String> path = new ArrayList<>();
        List<String> only = new ArrayList<>();
        List<String> except = new ArrayList<>();
        while (true) {
            Token part = in.peek();
            if (part.kind() == VAR) {
                in.advance();
                path.add(part.text());
                if (in.accept(DOT)) continue;
                break;
            }
            if (part.kind() == VARLBRA) {
                in.advance();
                path.add(part.text());
                do {
                    if (in.accept(GET)) {
                        except.add(in.expectToken(VAR, "a parameter name").text());
                    } else {
                        only.add(in.expectToken(VAR, "a parameter name").text());
                    }
                } while (in.accept(COMMA));
                in.expect(RBRA, "`]`");
                break;
            }
            throw in.unexpected(part, "the name of a function");
        }
        in.expectClosing(RPAR, open);
        return new ArgsOf(
                t.span().to(in.last().span()),
                String.join(".", path),
                List.copyOf(only),
                List.copyOf(except));
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
        in.enter(in.peek());
        int wraps = 0;
        try {
            Expr left = prefix();
            while (true) {
                Token t = in.peek();
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
                in.enter(t);
                wraps++;
                left = infix(left, t);
            }
            return left;
        } finally {
            in.exit(wraps);
            in.exit();
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
        in.advance();
        switch (t.kind()) {
            case SET -> {
                Expr right = expr(LEVEL_SET);
                return new Expr.Set(left.span().to(right.span()), left, right);
            }
            case QUESTION -> {
                Expr then = expr();
                in.expect(COLON, "`:` and the value when the condition is false");
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
                Token next = in.peek();
                if (next.kind() == LCUR) {
                    in.advance();
                    List<RecordEntry> entries = recordEntries(next);
                    return new Expr.RecordLit(left.span().to(in.last().span()), left, entries);
                }
                if (next.kind() == VARLBRA) {
                    in.advance();
                    Expr.Invoke field =
                            new Expr.Invoke(
                                    left.span().to(TokenStream.nameSpan(next)),
                                    left,
                                    next.text(),
                                    false);
                    Expr key = expr();
                    in.expectClosing(RBRA, next);
                    return new Expr.Assoc(left.span().to(in.last().span()), field, key);
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
        Token t = in.advance();
        if (t.kind() == VAR) {
            return new Expr.Invoke(target.span().to(t.span()), target, t.text(), optional);
        }
        if (t.kind() == VARLPAR) {
            List<Arg> args = args(t);
            return new Expr.MethodCall(
                    target.span().to(in.last().span()), target, t.text(), args, optional);
        }
        throw in.unexpected(t, "a field name");
    }

    private Expr prefix() {
        Token t = in.peek();
        switch (t.kind()) {
            case INT -> {
                in.advance();
                return new Expr.IntLit(t.span(), t.text());
            }
            case FLOAT -> {
                in.advance();
                return new Expr.FloatLit(t.span(), t.text());
            }
            case BOOL -> {
                in.advance();
                return new Expr.BoolLit(t.span(), t.text().equals("true"));
            }
            case STRING -> {
                in.advance();
                return new Expr.StringLit(t.span(), t.extra().charAt(0), t.text());
            }
            case RAW_STRING -> {
                in.advance();
                return new Expr.RawStringLit(t.span(), t.extra(), t.text());
            }
            case REGEXP -> {
                in.advance();
                return new Expr.RegexpLit(t.span(), t.text(), t.extra());
            }
            case NULL -> {
                in.advance();
                return new Expr.NullLit(t.span());
            }
            case TIME -> {
                in.advance();
                return new Expr.TimeLit(t.span(), time(t, t.text()));
            }
            case INTERVAL -> {
                in.advance();
                int dash = t.text().indexOf('-');
                return new Expr.IntervalLit(
                        t.span(),
                        time(t, t.text().substring(0, dash).strip()),
                        time(t, t.text().substring(dash + 1).strip()));
            }
            case VAR -> {
                in.advance();
                return new Expr.Var(t.span(), t.text());
            }
            case VARLPAR -> {
                in.advance();
                Expr function = new Expr.Var(TokenStream.nameSpan(t), t.text());
                List<Arg> args = args(t);
                return new Expr.Call(t.span().to(in.last().span()), function, args);
            }
            case VARLBRA -> {
                in.advance();
                Expr target = new Expr.Var(TokenStream.nameSpan(t), t.text());
                Expr key = expr();
                in.expectClosing(RBRA, t);
                return new Expr.Assoc(t.span().to(in.last().span()), target, key);
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
                in.advance();
                Expr operand = expr(LEVEL_UMINUS);
                return new Expr.Negative(t.span().to(operand.span()), operand);
            }
            case NOT -> {
                in.advance();
                Expr operand = expr(LEVEL_NOT);
                return new Expr.Not(t.span().to(operand.span()), operand);
            }
            case GET -> {
                in.advance();
                Expr operand = expr(LEVEL_GET);
                return new Expr.Get(t.span().to(operand.span()), operand);
            }
            case ENCODER -> {
                return encoder();
            }
            case BEGIN -> {
                in.advance();
                Expr.Sequence body = exprs(false);
                in.expectClosing(END, t);
                return new Expr.Block(t.span().to(in.last().span()), body);
            }
            case FUN -> {
                in.advance();
                Token open = in.expectToken(LPAR, "`(` and the parameters");
                List<Param> params = params(open);
                in.expect(YIELDS, "`->` and the function's body");
                Expr body = expr(CONTEXT_FUN_BODY);
                return new Expr.Fun(t.span().to(body.span()), params, body);
            }
            case WHILE -> {
                in.advance();
                Expr condition = expr();
                in.expect(DO, "`do`");
                Expr.Sequence body = exprs(false);
                in.expectClosing(END, t);
                return new Expr.While(t.span().to(in.last().span()), condition, body);
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
                in.advance();
                Expr.Include include =
                        new Expr.Include(t.span(), Expr.IncludeKind.valueOf(t.extra()), t.text());
                if (includes == null) return include;
                Expr.Sequence included =
                        includes.include(
                                include.span(), include.kind(), include.name(), in.depth());
                // Located at the %include, in this file (an expression around it spans this
                // file's text); its statements keep the places they have in theirs.
                lastInclude =
                        included != null
                                ? new Expr.Sequence(t.span(), included.items())
                                : new Expr.TupleLit(t.span(), List.of());
                return lastInclude;
            }
            case PP_IFDEF -> {
                return ifDef();
            }
            case PP_IFENCODER -> {
                in.advance();
                Token encoder = in.expectToken(ENCODER, "an encoder, as `%mp3`");
                Expr.Sequence then = exprs(false);
                Expr.Sequence otherwise = in.accept(PP_ELSE) ? exprs(false) : null;
                in.expectClosing(PP_ENDIF, t);
                return new Expr.IfEncoder(
                        t.span().to(in.last().span()),
                        t.extra().equals("negative"),
                        encoder.text(),
                        then,
                        otherwise);
            }
            case PP_IFVERSION -> {
                return ifVersion();
            }
            default -> throw in.unexpected(t, "an expression");
        }
    }

    private Expr interpolation() {
        Token begin = in.advance();
        List<Expr> parts = new ArrayList<>();
        while (in.peek().kind() != END_INTERPOLATION) {
            Token t = in.peek();
            if (t.kind() == INTERPOLATED_STRING) {
                in.advance();
                parts.add(new Expr.StringLit(t.span(), t.extra().charAt(0), t.text()));
            } else {
                parts.add(expr());
            }
        }
        if (parts.isEmpty()) throw in.unexpected(in.peek(), "an expression in `#{}`");
        in.advance();
        return new Expr.InterpolatedString(
                begin.span().to(in.last().span()), begin.extra().charAt(0), List.copyOf(parts));
    }

    private Expr parenthesized() {
        Token open = in.advance();
        if (in.accept(RPAR)) return new Expr.TupleLit(open.span().to(in.last().span()), List.of());
        Expr first = expr();
        if (in.accept(COLON)) {
            TypeAnnotation type = types.type();
            in.expectClosing(RPAR, open);
            return new Expr.Cast(open.span().to(in.last().span()), first, type);
        }
        if (in.peek().kind() == COMMA) {
            List<Expr> elements = new ArrayList<>(List.of(first));
            while (in.accept(COMMA)) elements.add(expr());
            in.expectClosing(RPAR, open);
            return new Expr.TupleLit(open.span().to(in.last().span()), List.copyOf(elements));
        }
        in.expectClosing(RPAR, open);
        return new Expr.Parens(open.span().to(in.last().span()), first);
    }

    private Expr list() {
        Token open = in.advance();
        List<ListElement> elements = new ArrayList<>();
        while (in.peek().kind() != RBRA) {
            Token t = in.peek();
            if (in.accept(DOTDOTDOT)) {
                Expr value = expr();
                elements.add(new ListElement.Spread(t.span().to(value.span()), value));
            } else {
                elements.add(new ListElement.Item(expr()));
            }
            if (!in.accept(COMMA)) break;
        }
        in.expectClosing(RBRA, open);
        return new Expr.ListLit(open.span().to(in.last().span()), List.copyOf(elements));
    }

    /** {@code {}}, a record {@code {a = 1, ...r}}, or a getter {@code { e }}. */
    private Expr brace() {
        Token open = in.advance();
        if (in.accept(RCUR))
            return new Expr.RecordLit(open.span().to(in.last().span()), null, List.of());
        Token t = in.peek();
        if (t.kind() == DOTDOTDOT || (t.kind() == VAR && in.peek(1).kind() == GETS)) {
            List<RecordEntry> entries = recordEntries(open);
            return new Expr.RecordLit(open.span().to(in.last().span()), null, entries);
        }
        Expr.Sequence body = exprs(true);
        in.expectClosing(RCUR, open);
        return new Expr.Getter(open.span().to(in.last().span()), body);
    }

    /** {@code a = 1, ...r}, an optional trailing comma, {@code }}. */
    private List<RecordEntry> recordEntries(Token open) {
        List<RecordEntry> entries = new ArrayList<>();
        do {
            Token t = in.peek();
            if (in.accept(DOTDOTDOT)) {
                Expr value = expr();
                entries.add(new RecordEntry.Spread(t.span().to(value.span()), value));
            } else if (t.kind() == VAR && in.peek(1).kind() == GETS) {
                in.advance();
                in.advance();
                Expr value = expr();
                entries.add(new RecordEntry.Field(t.span().to(value.span()), t.text(), value));
            } else {
                throw in.unexpected(t, "a field `name = value` or `...record`");
            }
        } while (in.accept(COMMA) && in.peek().kind() != RCUR);
        in.expectClosing(RCUR, open);
        return List.copyOf(entries);
    }

    /** The arguments after {@code f(}, and the {@code )}. */
    private List<Arg> args(Token open) {
        List<Arg> args = new ArrayList<>();
        while (in.peek().kind() != RPAR) {
            Token t = in.peek();
            if (t.kind() == VAR && in.peek(1).kind() == GETS) {
                in.advance();
                in.advance();
                Expr value = expr();
                args.add(new Arg.Labelled(t.span().to(value.span()), t.text(), value));
            } else if (t.kind() == ARGS_OF) {
                args.add(argsOf());
            } else {
                args.add(new Arg.Positional(expr()));
            }
            if (!in.accept(COMMA)) break;
        }
        in.expectClosing(RPAR, open);
        return List.copyOf(args);
    }

    private Expr encoder() {
        Token t = in.advance();
        List<EncoderParam> params = new ArrayList<>();
        if (in.peek().kind() == LPAR) {
            Token open = in.advance();
            while (in.peek().kind() != RPAR) {
                params.add(encoderParam());
                if (!in.accept(COMMA)) break;
            }
            in.expectClosing(RPAR, open);
        }
        return new Expr.Encoder(t.span().to(in.last().span()), t.text(), List.copyOf(params));
    }

    private EncoderParam encoderParam() {
        Token t = in.peek();
        if (t.kind() == ENCODER) return new EncoderParam.Nested((Expr.Encoder) encoder());
        if (t.kind() != VAR && t.kind() != STRING) {
            throw in.unexpected(t, "an encoder parameter (`name=value`, `name` or `%encoder`)");
        }
        in.advance();
        boolean quoted = t.kind() == STRING;
        String name = quoted ? TokenStream.text(t) : t.text();
        if (in.accept(GETS)) {
            Expr value = expr();
            return new EncoderParam.Labelled(t.span().to(value.span()), name, quoted, value);
        }
        return new EncoderParam.Flag(t.span(), name, quoted);
    }

    private Expr forLoop() {
        Token t = in.advance();
        Token variable = in.optionalName("the loop variable");
        in.expect(GETS, "`=`");
        Expr from = expr();
        if (in.accept(TO)) {
            Expr to = expr();
            in.expect(DO, "`do`");
            Expr.Sequence body = exprs(false);
            in.expectClosing(END, t);
            return new Expr.For(
                    t.span().to(in.last().span()), TokenStream.nameOf(variable), from, to, body);
        }
        in.expect(DO, "`to` or `do`");
        Expr.Sequence body = exprs(false);
        in.expectClosing(END, t);
        return new Expr.ForEach(
                t.span().to(in.last().span()), TokenStream.nameOf(variable), from, body);
    }

    private Expr tryCatch() {
        Token t = in.advance();
        Expr.Sequence body = exprs(false);
        if (in.accept(FINALLY)) {
            Expr.Sequence ensure = exprs(false);
            in.expectClosing(END, t);
            return new Expr.Try(t.span().to(in.last().span()), body, "_", null, null, ensure);
        }
        in.expect(CATCH, "`catch` or `finally`");
        Token variable = in.optionalName("the error's name");
        Expr.ListLit errors = null;
        if (in.accept(COLON)) {
            Token open = in.peek();
            if (open.kind() != LBRA) throw in.unexpected(open, "a list of error kinds, `[...]`");
            errors = (Expr.ListLit) list();
        }
        in.expect(DO, "`do`");
        Expr.Sequence handler = exprs(false);
        Expr.Sequence ensure = in.accept(FINALLY) ? exprs(false) : null;
        in.expectClosing(END, t);
        return new Expr.Try(
                t.span().to(in.last().span()),
                body,
                TokenStream.nameOf(variable),
                errors,
                handler,
                ensure);
    }

    private Expr ifThen() {
        Token t = in.advance();
        Expr.Sequence condition = exprs(false);
        in.expect(THEN, "`then`");
        Expr.Sequence then = exprs(false);
        List<Expr.ElseIf> elsifs = new ArrayList<>();
        while (in.accept(ELSIF)) {
            Expr.Sequence c = exprs(false);
            in.expect(THEN, "`then`");
            elsifs.add(new Expr.ElseIf(c, exprs(false)));
        }
        Expr.Sequence otherwise = in.accept(ELSE) ? exprs(false) : null;
        in.expectClosing(END, t);
        return new Expr.If(
                t.span().to(in.last().span()), condition, then, List.copyOf(elsifs), otherwise);
    }

    private Expr ifDef() {
        Token t = in.advance();
        StringBuilder name = new StringBuilder(in.expectToken(VAR, "a name").text());
        while (in.accept(DOT)) name.append('.').append(in.expectToken(VAR, "a name").text());
        Expr.Sequence then = exprs(false);
        Expr.Sequence otherwise = in.accept(PP_ELSE) ? exprs(false) : null;
        in.expectClosing(PP_ENDIF, t);
        return new Expr.IfDef(
                t.span().to(in.last().span()),
                t.extra().equals("negative"),
                name.toString(),
                then,
                otherwise);
    }

    private Expr ifVersion() {
        Token t = in.advance();
        Token op = in.advance();
        if (op.kind() != BIN1 || op.text().equals("!=")) {
            throw in.unexpected(op, "a comparison (`==`, `<`, `<=`, `>`, `>=`)");
        }
        Token version = in.advance();
        if (version.kind() != VERSION && version.kind() != INT && version.kind() != FLOAT) {
            throw in.unexpected(version, "a version, as 2.4.0");
        }
        Expr.Sequence then = exprs(false);
        Expr.Sequence otherwise = in.accept(PP_ELSE) ? exprs(false) : null;
        in.expectClosing(PP_ENDIF, t);
        return new Expr.IfVersion(
                t.span().to(in.last().span()), op.text(), version.text(), then, otherwise);
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
}
