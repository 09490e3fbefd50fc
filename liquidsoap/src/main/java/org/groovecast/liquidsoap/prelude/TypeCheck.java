package org.groovecast.liquidsoap.prelude;

import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.syntax.EvalCheck;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * Where the front end's check calls the type checker: implemented by the type checker's package and
 * found with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/org.groovecast.liquidsoap.prelude.TypeCheck}), so that this package knows
 * nothing of it. It reads the script as parsed (includes spliced in) and the names in scope with
 * their types, {@link Library#types()}: the prelude's and the station's operators'; {@link
 * Library#hasEncoder} decides {@code %ifencoder}.
 */
public interface TypeCheck {
    /** A type error: where, and what (without the place: {@code this value has type string...}). */
    record Problem(Span span, String message) {}

    /**
     * What a check found: the type errors (Liquidsoap stops at the first, so at most one), and the
     * type inferred for each {@code let json.parse x = s} written without one, by the span of its
     * {@code let}: the evaluation decodes the JSON as that type, as Liquidsoap does; and the check
     * of the strings its {@code let eval} evaluate, in the scope the script's top level left.
     */
    record Result(
            List<Problem> problems, Map<Span, TypeAnnotation> jsonTypes, EvalCheck evalCheck) {
        public Result {
            problems = List.copyOf(problems);
            jsonTypes = Map.copyOf(jsonTypes);
        }

        public Result(List<Problem> problems, Map<Span, TypeAnnotation> jsonTypes) {
            this(problems, jsonTypes, EvalCheck.NONE);
        }

        public static Result of(Problem problem) {
            return new Result(List.of(problem), Map.of());
        }

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    /** Checks {@code program} against {@code library}. */
    Result check(Expr.Sequence program, Library library);

    /** The type checkers found on the class path (none without the type checker's package). */
    static List<TypeCheck> found() {
        return java.util.ServiceLoader.load(TypeCheck.class, TypeCheck.class.getClassLoader())
                .stream()
                .map(java.util.ServiceLoader.Provider::get)
                .toList();
    }
}
