package org.groovecast.liquidsoap.syntax;

import java.util.List;

/**
 * An expression of the Liquidsoap language as written, before any desugaring: the parser's output,
 * one record per construct of Liquidsoap 2.4's grammar. Nullable components are said so; lists are
 * never null.
 */
public sealed interface Expr extends Statement
        permits Expr.IntLit,
                Expr.FloatLit,
                Expr.BoolLit,
                Expr.StringLit,
                Expr.RawStringLit,
                Expr.InterpolatedString,
                Expr.RegexpLit,
                Expr.NullLit,
                Expr.TimeLit,
                Expr.IntervalLit,
                Expr.Var,
                Expr.TupleLit,
                Expr.ListLit,
                Expr.RecordLit,
                Expr.Invoke,
                Expr.MethodCall,
                Expr.Call,
                Expr.Assoc,
                Expr.Not,
                Expr.Negative,
                Expr.Get,
                Expr.Set,
                Expr.Infix,
                Expr.BoolOp,
                Expr.Coalesce,
                Expr.Cons,
                Expr.At,
                Expr.If,
                Expr.InlineIf,
                Expr.While,
                Expr.For,
                Expr.ForEach,
                Expr.Try,
                Expr.Block,
                Expr.Parens,
                Expr.Cast,
                Expr.Fun,
                Expr.Getter,
                Expr.Encoder,
                Expr.Sequence,
                Expr.Include,
                Expr.IfDef,
                Expr.IfEncoder,
                Expr.IfVersion {

    /** {@code 12}, {@code 0x1F}, {@code 0o17}, {@code 0b101}, {@code 1_000}: as written. */
    record IntLit(Span span, String text) implements Expr {}

    /** {@code 1.5}, {@code .5}, {@code 2.}, {@code 1e-3}: as written. */
    record FloatLit(Span span, String text) implements Expr {}

    record BoolLit(Span span, boolean value) implements Expr {}

    /**
     * {@code "..."} or {@code '...'}: the text between the quotes as written ({@code raw}, escapes
     * not yet applied). Liquidsoap strings are bytes: {@link #bytes()} applies the escapes.
     */
    record StringLit(Span span, char quote, String raw) implements Expr {
        public byte[] bytes() {
            return StringEscapes.render(raw, quote).bytes();
        }

        /** The value as text (bytes that are not UTF-8 read as U+FFFD). */
        public String text() {
            return StringEscapes.decode(bytes());
        }
    }

    /** {@code {id|text|id}}: no escapes. */
    record RawStringLit(Span span, String id, String text) implements Expr {}

    /**
     * {@code "a #{e} b"}: the pieces of text ({@link StringLit}, raw as written) and the
     * expressions, in order.
     */
    record InterpolatedString(Span span, char quote, List<Expr> parts) implements Expr {}

    /** {@code r/pattern/flags}, the pattern as written. */
    record RegexpLit(Span span, String raw, String flags) implements Expr {}

    record NullLit(Span span) implements Expr {}

    /** A time predicate, {@code 8h}, {@code 12h30m}, {@code 0m}, {@code 1w}. */
    record TimeLit(Span span, TimeSpec time) implements Expr {}

    /** A time interval predicate, {@code 8h-12h}. */
    record IntervalLit(Span span, TimeSpec from, TimeSpec to) implements Expr {}

    /**
     * A variable. Besides the names written, {@code _null} is Liquidsoap's name for {@code null}
     * when called or indexed ({@code null()}, {@code null.x}).
     */
    record Var(Span span, String name) implements Expr {}

    /** {@code (a, b)}; {@code ()} is unit. */
    record TupleLit(Span span, List<Expr> elements) implements Expr {}

    /** {@code [a, ...l, b]} */
    record ListLit(Span span, List<ListElement> elements) implements Expr {}

    /** {@code {a = 1, ...r}}, or {@code base.{a = 1}} (base is null for the first). */
    record RecordLit(Span span, Expr base, List<RecordEntry> entries) implements Expr {}

    /** {@code e.name}, or {@code e?.name} (optional: null when e is null or has no such field). */
    record Invoke(Span span, Expr target, String name, boolean optional) implements Expr {}

    /** {@code e.name(args)} or {@code e?.name(args)}. */
    record MethodCall(Span span, Expr target, String name, List<Arg> args, boolean optional)
            implements Expr {}

    /**
     * {@code f(args)}. Liquidsoap applies names only (a name written right before its parenthesis,
     * on the same line): {@code function} is a {@link Var}.
     */
    record Call(Span span, Expr function, List<Arg> args) implements Expr {}

    /** {@code l[key]}, {@code r.l[key]}. */
    record Assoc(Span span, Expr target, Expr key) implements Expr {}

    record Not(Span span, Expr operand) implements Expr {}

    /** Unary minus. */
    record Negative(Span span, Expr operand) implements Expr {}

    /** {@code !r}: a reference's value (the old syntax for {@code r()}). */
    record Get(Span span, Expr reference) implements Expr {}

    /** {@code r := v} */
    record Set(Span span, Expr reference, Expr value) implements Expr {}

    /** A binary operator: {@code == != < <= > >=}, {@code + - % ^ +. -.}, {@code * / *. /. mod}. */
    record Infix(Span span, Expr left, String operator, Expr right) implements Expr {}

    /** {@code a and b and c} or {@code a or b}: the operands of one chain. */
    record BoolOp(Span span, String operator, List<Expr> operands) implements Expr {}

    /** {@code e ?? fallback} */
    record Coalesce(Span span, Expr value, Expr fallback) implements Expr {}

    /** {@code head :: tail} */
    record Cons(Span span, Expr head, Expr tail) implements Expr {}

    /** {@code x @ f}: f applied to x. */
    record At(Span span, Expr argument, Expr function) implements Expr {}

    /** {@code if c then a elsif c2 then b else d end}; {@code otherwise} is null without else. */
    record If(Span span, Sequence condition, Sequence then, List<ElseIf> elsifs, Sequence otherwise)
            implements Expr {}

    record ElseIf(Sequence condition, Sequence then) {}

    /** {@code c ? a : b} */
    record InlineIf(Span span, Expr condition, Expr then, Expr otherwise) implements Expr {}

    record While(Span span, Expr condition, Sequence body) implements Expr {}

    /** {@code for i = from to to do body end} */
    record For(Span span, String variable, Expr from, Expr to, Sequence body) implements Expr {}

    /** {@code for x = iterator do body end} */
    record ForEach(Span span, String variable, Expr iterator, Sequence body) implements Expr {}

    /**
     * {@code try body catch variable : errors do handler finally ensure end}: {@code errors} (the
     * error kinds caught, a list literal), {@code handler} and {@code ensure} null when not
     * written; the variable is {@code _} without a catch.
     */
    record Try(
            Span span,
            Sequence body,
            String variable,
            ListLit errors,
            Sequence handler,
            Sequence ensure)
            implements Expr {}

    /** {@code begin ... end} */
    record Block(Span span, Sequence body) implements Expr {}

    /** {@code (e)} */
    record Parens(Span span, Expr inner) implements Expr {}

    /** {@code (e : type)} */
    record Cast(Span span, Expr value, TypeAnnotation type) implements Expr {}

    /** {@code fun (params) -> body} */
    record Fun(Span span, List<Param> params, Expr body) implements Expr {}

    /** {@code { body }}: a function of no argument (a getter, a predicate, a callback). */
    record Getter(Span span, Sequence body) implements Expr {}

    /** {@code %mp3(bitrate=128)}, {@code %audio.copy}: the encoder's name and its parameters. */
    record Encoder(Span span, String name, List<EncoderParam> params) implements Expr {}

    /**
     * Expressions and definitions one after the other (Liquidsoap's {@code exprs}): the value is
     * the last item's, unit when that is a definition (or when there is none: an empty file, or an
     * empty one included where an expression goes).
     */
    record Sequence(Span span, List<Statement> items) implements Expr {}

    /** How an {@code %include} names its file. */
    enum IncludeKind {
        /** {@code %include "file"}, relative to the including file */
        FILE,
        /** {@code %include_extra "file"}: like FILE, nothing when the file does not exist */
        EXTRA,
        /** {@code %include <file>}, from the library directories */
        LIBRARY
    }

    /**
     * {@code %include "file"} as parsed. {@link org.groovecast.liquidsoap.parser.Scripts} replaces
     * every one by the file's statements; none is left in what it returns.
     */
    record Include(Span span, IncludeKind kind, String name) implements Expr {}

    /**
     * {@code %ifdef name ... %else ... %endif} ({@code %ifndef}: negative): which branch applies
     * depends on what is defined, so both are kept. {@code otherwise} is null without {@code
     * %else}. As an item of a sequence, the branch that applies takes its place there (its
     * definitions are in scope for the rest), as in Liquidsoap; the same for the two below.
     */
    record IfDef(Span span, boolean negative, String name, Sequence then, Sequence otherwise)
            implements Expr {}

    /** {@code %ifencoder %mp3 ... %endif} ({@code %ifnencoder}: negative). */
    record IfEncoder(Span span, boolean negative, String encoder, Sequence then, Sequence otherwise)
            implements Expr {}

    /** {@code %ifversion >= 2.4.0 ... %endif}: the operator and the version as written. */
    record IfVersion(Span span, String operator, String version, Sequence then, Sequence otherwise)
            implements Expr {}
}
