package org.groovecast.liquidsoap.syntax;

import java.util.Optional;

/**
 * The type check of the string a {@code let eval x = s} evaluates, made when it is evaluated, as
 * Liquidsoap type-checks it: in the scope the library and the script's top level give, against the
 * pattern's annotation ({@code let eval (x : int) = s}) when it has one. Refused, the {@code let}
 * raises an {@code eval} error the script may catch, and nothing of the string runs. Here, in the
 * syntax package, because the type checker that makes it and the evaluator that calls it both read
 * the syntax tree and neither may depend on the other.
 */
@FunctionalInterface
public interface EvalCheck {
    /** No check (no type checker on the class path). */
    EvalCheck NONE = (program, expected) -> Optional.empty();

    /** Why {@code program} is ill-typed ({@code eval:1:8: this value has type...}), or empty. */
    Optional<String> refusal(Expr.Sequence program, TypeAnnotation expected);
}
