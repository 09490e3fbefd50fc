package org.groovecast.liquidsoap.parser;

import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Span;

/** What the parser does with an {@code %include}: reads the file and parses it in its place. */
public interface Includes {

    /**
     * The statements of the file an {@code %include} at {@code at} names, parsed with the nesting
     * already used up ({@code depth}); null for an {@code %include_extra} of a file that does not
     * exist.
     */
    Expr.Sequence include(Span at, Expr.IncludeKind kind, String name, int depth);
}
