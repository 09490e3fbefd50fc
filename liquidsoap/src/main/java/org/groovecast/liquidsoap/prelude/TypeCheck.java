package org.groovecast.liquidsoap.prelude;

import java.util.List;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * Where the front end's check calls the type checker: implemented by the type checker's package and
 * found with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/org.groovecast.liquidsoap.prelude.TypeCheck}); a script is checked by every one
 * found, none today. It reads the script as parsed (includes spliced in) and the names in scope
 * with their types, {@link Library#types()}: the prelude's and the station's operators'.
 */
public interface TypeCheck {
    /** A type error: where, and what (without the place: {@code this value has type string...}). */
    record Problem(Span span, String message) {}

    /** The type errors of {@code program}, in the order written; empty when it type-checks. */
    List<Problem> check(Expr.Sequence program, Library library);
}
