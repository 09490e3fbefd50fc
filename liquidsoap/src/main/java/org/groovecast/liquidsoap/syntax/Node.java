package org.groovecast.liquidsoap.syntax;

/** Anything of the syntax tree: each knows where it was written. */
public interface Node {
    Span span();
}
