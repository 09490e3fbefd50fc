package org.groovecast.liquidsoap.syntax;

import java.util.List;

/**
 * One item of a {@link Expr.Sequence}: an expression, or a definition or {@code open} whose scope
 * is the rest of the sequence (Liquidsoap's {@code let x = e in rest}, written flat so that a long
 * script is a long list rather than a deep tree).
 */
public sealed interface Statement extends Node permits Expr, Statement.Let, Statement.Open {

    /** How a definition was written; they mean the same but for what each allows. */
    enum LetKind {
        /** {@code x = e} */
        BINDING,
        /** {@code let x = e} (with a decoration, or a pattern, or a field path) */
        LET,
        /** {@code def x ... end}, with or without parameters */
        DEF
    }

    /** The word after {@code let} or {@code def} that changes what the definition does. */
    enum Decoration {
        NONE,
        /** {@code def rec} */
        RECURSIVE,
        /** {@code def replaces}, {@code let replaces} */
        REPLACES,
        /** {@code let eval} */
        EVAL,
        /** {@code let json.parse}, {@code let json.parse[json5=true]} */
        JSON_PARSE,
        /** {@code let yaml.parse} */
        YAML_PARSE,
        /** {@code let xml.parse} */
        XML_PARSE,
        /** {@code let sqlite.row} */
        SQLITE_ROW,
        /** {@code let sqlite.query} */
        SQLITE_QUERY
    }

    /**
     * A definition. {@code params} is null unless it is a function ({@code def f(x) ... end});
     * {@code options} are the bracketed ones of {@code let json.parse[json5=true]}; {@code type} is
     * the annotation of {@code let (x : int) = e}, or null; {@code value} is the defined expression
     * (the body of a {@code def}, a {@link Expr.Sequence}).
     */
    record Let(
            Span span,
            LetKind kind,
            Decoration decoration,
            List<Arg.Labelled> options,
            Pattern pattern,
            List<Param> params,
            TypeAnnotation type,
            Expr value)
            implements Statement {}

    /** {@code open m}: the fields of {@code m} in scope for the rest of the sequence. */
    record Open(Span span, Expr module) implements Statement {}
}
