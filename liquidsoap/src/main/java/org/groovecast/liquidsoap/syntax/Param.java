package org.groovecast.liquidsoap.syntax;

/**
 * A function's parameter: {@code x}, {@code x=1}, {@code (x : int)}, {@code ~x}, {@code ~x=1},
 * {@code ~x:y}, {@code ~(x : int)}, {@code %argsof(f)}. {@code type} and {@code fallback} (the
 * default value, which makes the parameter optional) are null when not written.
 */
public sealed interface Param extends Node permits Param.Positional, Param.Labelled, ArgsOf {

    record Positional(Span span, Pattern pattern, TypeAnnotation type, Expr fallback)
            implements Param {}

    /**
     * {@code ~label}; {@code as} is the pattern the value is bound to when it is not the label
     * itself ({@code ~label:pattern}), or null.
     */
    record Labelled(Span span, String label, Pattern as, TypeAnnotation type, Expr fallback)
            implements Param {}
}
