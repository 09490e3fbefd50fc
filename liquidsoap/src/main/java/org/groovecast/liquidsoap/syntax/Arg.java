package org.groovecast.liquidsoap.syntax;

/** An argument at a call: {@code f(x)}, {@code f(label=x)}, {@code f(%argsof(g))}. */
public sealed interface Arg extends Node permits Arg.Positional, Arg.Labelled, ArgsOf {

    record Positional(Expr value) implements Arg {
        @Override
        public Span span() {
            return value.span();
        }
    }

    record Labelled(Span span, String label, Expr value) implements Arg {}
}
