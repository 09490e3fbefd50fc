package org.groovecast.liquidsoap.syntax;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The syntax tree as a short S-expression, without spans, so that a test states the shape it
 * expects in one line: {@code (+ 1 (* 2 3))}.
 */
public final class Show {
    private Show() {}

    public static String of(Statement s) {
        return switch (s) {
            case Statement.Let let -> let(let);
            case Statement.Open open -> "(open " + of(open.module()) + ")";
            case Expr e -> expr(e);
        };
    }

    private static String let(Statement.Let let) {
        StringBuilder b = new StringBuilder("(");
        b.append(let.kind().name().toLowerCase());
        if (let.decoration() != Statement.Decoration.NONE) {
            b.append(' ').append(let.decoration().name().toLowerCase());
        }
        if (!let.options().isEmpty())
            b.append(" [").append(args(List.copyOf(let.options()))).append(']');
        b.append(' ').append(pattern(let.pattern()));
        if (let.params() != null) b.append(" (").append(params(let.params())).append(')');
        if (let.type() != null) b.append(" : ").append(type(let.type()));
        return b.append(' ').append(of(let.value())).append(')').toString();
    }

    private static String expr(Expr e) {
        return switch (e) {
            case Expr.IntLit i -> i.text();
            case Expr.FloatLit f -> f.text();
            case Expr.BoolLit b -> String.valueOf(b.value());
            case Expr.StringLit s -> s.quote() + s.raw() + s.quote();
            case Expr.RawStringLit r -> "{" + r.id() + "|" + r.text() + "|" + r.id() + "}";
            case Expr.InterpolatedString i -> "(interp " + all(i.parts(), Show::of) + ")";
            case Expr.RegexpLit r -> "r/" + r.raw() + "/" + r.flags();
            case Expr.NullLit n -> "null";
            case Expr.TimeLit t -> "(time " + time(t.time()) + ")";
            case Expr.IntervalLit t -> "(interval " + time(t.from()) + " " + time(t.to()) + ")";
            case Expr.Var v -> v.name();
            case Expr.TupleLit t -> "(tuple" + prefixed(t.elements()) + ")";
            case Expr.ListLit l ->
                    "["
                            + l.elements().stream()
                                    .map(
                                            x ->
                                                    switch (x) {
                                                        case ListElement.Item i -> of(i.value());
                                                        case ListElement.Spread s ->
                                                                "..." + of(s.value());
                                                    })
                                    .collect(Collectors.joining(" "))
                            + "]";
            case Expr.RecordLit r ->
                    "(record"
                            + (r.base() != null ? " " + of(r.base()) + " with" : "")
                            + r.entries().stream()
                                    .map(
                                            x ->
                                                    switch (x) {
                                                        case RecordEntry.Field f ->
                                                                " "
                                                                        + f.name()
                                                                        + "="
                                                                        + of(f.value());
                                                        case RecordEntry.Spread s ->
                                                                " ..." + of(s.value());
                                                    })
                                    .collect(Collectors.joining())
                            + ")";
            case Expr.Invoke i ->
                    "(" + (i.optional() ? "?." : ".") + " " + of(i.target()) + " " + i.name() + ")";
            case Expr.MethodCall m ->
                    "("
                            + (m.optional() ? "?." : ".")
                            + " "
                            + of(m.target())
                            + " ("
                            + m.name()
                            + args(m.args())
                            + "))";
            case Expr.Call c -> "(" + of(c.function()) + args(c.args()) + ")";
            case Expr.Assoc a -> "([] " + of(a.target()) + " " + of(a.key()) + ")";
            case Expr.Not n -> "(not " + of(n.operand()) + ")";
            case Expr.Negative n -> "(neg " + of(n.operand()) + ")";
            case Expr.Get g -> "(! " + of(g.reference()) + ")";
            case Expr.Set s -> "(:= " + of(s.reference()) + " " + of(s.value()) + ")";
            case Expr.Infix i ->
                    "(" + i.operator() + " " + of(i.left()) + " " + of(i.right()) + ")";
            case Expr.BoolOp b -> "(" + b.operator() + prefixed(b.operands()) + ")";
            case Expr.Coalesce c -> "(?? " + of(c.value()) + " " + of(c.fallback()) + ")";
            case Expr.Cons c -> "(:: " + of(c.head()) + " " + of(c.tail()) + ")";
            case Expr.At a -> "(@ " + of(a.argument()) + " " + of(a.function()) + ")";
            case Expr.If i ->
                    "(if "
                            + of(i.condition())
                            + " "
                            + of(i.then())
                            + i.elsifs().stream()
                                    .map(x -> " elsif " + of(x.condition()) + " " + of(x.then()))
                                    .collect(Collectors.joining())
                            + (i.otherwise() != null ? " else " + of(i.otherwise()) : "")
                            + ")";
            case Expr.InlineIf i ->
                    "(?: " + of(i.condition()) + " " + of(i.then()) + " " + of(i.otherwise()) + ")";
            case Expr.While w -> "(while " + of(w.condition()) + " " + of(w.body()) + ")";
            case Expr.For f ->
                    "(for "
                            + f.variable()
                            + " "
                            + of(f.from())
                            + " "
                            + of(f.to())
                            + " "
                            + of(f.body())
                            + ")";
            case Expr.ForEach f ->
                    "(foreach " + f.variable() + " " + of(f.iterator()) + " " + of(f.body()) + ")";
            case Expr.Try t ->
                    "(try "
                            + of(t.body())
                            + " "
                            + t.variable()
                            + (t.errors() != null ? " : " + of(t.errors()) : "")
                            + (t.handler() != null ? " catch " + of(t.handler()) : "")
                            + (t.ensure() != null ? " finally " + of(t.ensure()) : "")
                            + ")";
            case Expr.Block b -> "(begin " + of(b.body()) + ")";
            case Expr.Parens p -> "(paren " + of(p.inner()) + ")";
            case Expr.Cast c -> "(cast " + of(c.value()) + " " + type(c.type()) + ")";
            case Expr.Fun f -> "(fun (" + params(f.params()) + ") " + of(f.body()) + ")";
            case Expr.Getter g -> "{" + of(g.body()) + "}";
            case Expr.Encoder en -> encoder(en);
            case Expr.Sequence s ->
                    s.items().size() == 1
                            ? of(s.items().getFirst())
                            : "(seq" + prefixed(s.items()) + ")";
            case Expr.Include i ->
                    "(include " + i.kind().name().toLowerCase() + " " + i.name() + ")";
            case Expr.IfDef d ->
                    "("
                            + (d.negative() ? "ifndef " : "ifdef ")
                            + d.name()
                            + " "
                            + of(d.then())
                            + (d.otherwise() != null ? " else " + of(d.otherwise()) : "")
                            + ")";
            case Expr.IfEncoder d ->
                    "("
                            + (d.negative() ? "ifnencoder " : "ifencoder ")
                            + d.encoder()
                            + " "
                            + of(d.then())
                            + (d.otherwise() != null ? " else " + of(d.otherwise()) : "")
                            + ")";
            case Expr.IfVersion d ->
                    "(ifversion "
                            + d.operator()
                            + " "
                            + d.version()
                            + " "
                            + of(d.then())
                            + (d.otherwise() != null ? " else " + of(d.otherwise()) : "")
                            + ")";
        };
    }

    private static String encoder(Expr.Encoder e) {
        if (e.params().isEmpty()) return "%" + e.name();
        return "(%"
                + e.name()
                + e.params().stream()
                        .map(
                                p ->
                                        switch (p) {
                                            case EncoderParam.Labelled l ->
                                                    " "
                                                            + quoted(l.label(), l.quoted())
                                                            + "="
                                                            + of(l.value());
                                            case EncoderParam.Flag f ->
                                                    " " + quoted(f.name(), f.quoted());
                                            case EncoderParam.Nested n ->
                                                    " " + encoder(n.encoder());
                                        })
                        .collect(Collectors.joining())
                + ")";
    }

    private static String quoted(String s, boolean quoted) {
        return quoted ? "\"" + s + "\"" : s;
    }

    private static String args(List<? extends Arg> args) {
        return args.stream()
                .map(
                        a ->
                                switch (a) {
                                    case Arg.Positional p -> " " + of(p.value());
                                    case Arg.Labelled l -> " " + l.label() + "=" + of(l.value());
                                    case ArgsOf o -> " " + argsOf(o);
                                })
                .collect(Collectors.joining());
    }

    private static String argsOf(ArgsOf o) {
        String filter =
                o.only().isEmpty() && o.except().isEmpty()
                        ? ""
                        : "["
                                + java.util.stream.Stream.concat(
                                                o.only().stream(),
                                                o.except().stream().map(x -> "!" + x))
                                        .collect(Collectors.joining(","))
                                + "]";
        return "%argsof(" + o.source() + filter + ")";
    }

    private static String params(List<Param> params) {
        return params.stream()
                .map(
                        p ->
                                switch (p) {
                                    case Param.Positional x ->
                                            pattern(x.pattern())
                                                    + (x.type() != null ? ":" + type(x.type()) : "")
                                                    + (x.fallback() != null
                                                            ? "=" + of(x.fallback())
                                                            : "");
                                    case Param.Labelled x ->
                                            "~"
                                                    + x.label()
                                                    + (x.as() != null
                                                            ? " as " + pattern(x.as())
                                                            : "")
                                                    + (x.type() != null ? ":" + type(x.type()) : "")
                                                    + (x.fallback() != null
                                                            ? "=" + of(x.fallback())
                                                            : "");
                                    case ArgsOf o -> argsOf(o);
                                })
                .collect(Collectors.joining(" "));
    }

    public static String pattern(Pattern p) {
        return switch (p) {
            case Pattern.Var v -> v.name();
            case Pattern.Tuple t -> "(" + all(t.elements(), Show::pattern) + ")";
            case Pattern.ListPattern l ->
                    "["
                            + all(l.before(), Show::pattern)
                            + (l.spread() != null ? " ..." + l.spread().name() + " " : "")
                            + all(l.after(), Show::pattern)
                            + "]";
            case Pattern.RecordPattern r ->
                    (r.base() != null ? pattern(r.base()) + "." : "")
                            + "{"
                            + r.fields().stream()
                                    .map(
                                            f ->
                                                    f.name()
                                                            + (f.nullable() ? "?" : "")
                                                            + (f.pattern() != null
                                                                    ? "=" + pattern(f.pattern())
                                                                    : ""))
                                    .collect(Collectors.joining(" "))
                            + (r.spread() != null ? " ..." + r.spread().name() : "")
                            + "}";
        };
    }

    public static String type(TypeAnnotation t) {
        return switch (t) {
            case TypeAnnotation.Named n -> n.name();
            case TypeAnnotation.Nullable n -> type(n.of()) + "?";
            case TypeAnnotation.ListOf l -> "[" + type(l.of()) + "]";
            case TypeAnnotation.JsonObject j -> "(json.object " + type(j.of()) + ")";
            case TypeAnnotation.Tuple tu ->
                    "(" + all(tu.elements(), Show::type).replace(" ", " * ") + ")";
            case TypeAnnotation.Arrow a ->
                    "(("
                            + a.args().stream()
                                    .map(
                                            x ->
                                                    (x.optional() ? "?" : "")
                                                            + (x.label().isEmpty()
                                                                    ? ""
                                                                    : x.label() + ":")
                                                            + type(x.type()))
                                    .collect(Collectors.joining(", "))
                            + ") -> "
                            + type(a.result())
                            + ")";
            case TypeAnnotation.RecordType r -> "{" + methods(r.methods()) + "}";
            case TypeAnnotation.WithMethods w -> type(w.base()) + ".{" + methods(w.methods()) + "}";
            case TypeAnnotation.Invoke i -> type(i.base()) + "." + i.name();
            case TypeAnnotation.Source s ->
                    s.name()
                            + "("
                            + s.tracks().stream()
                                    .map(
                                            tr ->
                                                    tr.name()
                                                            + "="
                                                            + tr.content()
                                                            + (tr.params().isEmpty()
                                                                    ? ""
                                                                    : "("
                                                                            + tr.params().stream()
                                                                                    .map(
                                                                                            c ->
                                                                                                    (c.label()
                                                                                                                            .isEmpty()
                                                                                                                    ? ""
                                                                                                                    : c
                                                                                                                                    .label()
                                                                                                                            + "=")
                                                                                                            + quoted(
                                                                                                                    c
                                                                                                                            .value(),
                                                                                                                    c
                                                                                                                            .quoted()))
                                                                                    .collect(
                                                                                            Collectors
                                                                                                    .joining(
                                                                                                            ","))
                                                                            + ")"))
                                    .collect(Collectors.joining(","))
                            + (s.extensible() ? (s.tracks().isEmpty() ? "..." : ",...") : "")
                            + ")";
        };
    }

    private static String methods(List<TypeAnnotation.Method> methods) {
        return methods.stream()
                .map(
                        m ->
                                (m.jsonName() != null ? "\"" + m.jsonName() + "\" as " : "")
                                        + m.name()
                                        + (m.optional() ? "?" : "")
                                        + ": "
                                        + type(m.type()))
                .collect(Collectors.joining(", "));
    }

    private static String time(TimeSpec t) {
        return (t.weeks() != null ? t.weeks() + "w" : "")
                + (t.hours() != null ? t.hours() + "h" : "")
                + (t.minutes() != null ? t.minutes() + "m" : "")
                + (t.seconds() != null ? t.seconds() + "s" : "");
    }

    private static String prefixed(List<? extends Statement> items) {
        return items.stream().map(x -> " " + of(x)).collect(Collectors.joining());
    }

    private static <T> String all(List<T> items, Function<T, String> show) {
        return items.stream().map(show).collect(Collectors.joining(" "));
    }
}
