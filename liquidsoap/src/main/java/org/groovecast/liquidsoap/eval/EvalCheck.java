package org.groovecast.liquidsoap.eval;

import java.util.Optional;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * The type check of the string a {@code let eval x = s} evaluates, made when it is evaluated, as
 * Liquidsoap type-checks it: in the scope the library and the script's top level give, against the
 * pattern's annotation ({@code let eval (x : int) = s}) when it has one. Refused, the {@code let}
 * raises an {@code eval} error the script may catch, and nothing of the string runs.
 */
@FunctionalInterface
public interface EvalCheck {
    /** No check (no type checker on the class path). */
    EvalCheck NONE = (program, expected) -> Optional.empty();

    /** Why {@code program} is ill-typed ({@code eval:1:8: this value has type...}), or empty. */
    Optional<String> refusal(Expr.Sequence program, TypeAnnotation expected);
}
