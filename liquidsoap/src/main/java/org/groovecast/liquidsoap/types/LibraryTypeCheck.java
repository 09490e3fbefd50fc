package org.groovecast.liquidsoap.types;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.prelude.TypeCheck;
import org.groovecast.liquidsoap.syntax.EvalCheck;
import org.groovecast.liquidsoap.syntax.Expr;

/**
 * The front end's type check ({@link TypeCheck}, found with {@link java.util.ServiceLoader}): the
 * script checked against the names its station's {@link Library} registers with their types (the
 * prelude's functions, prelude.liq's definitions, the station's operators), {@code %ifencoder}
 * holding for the encoders the station has. Like Liquidsoap, it stops at the first error. What a
 * {@code let eval} evaluates is checked when it runs, in the scope the script left.
 */
public final class LibraryTypeCheck implements TypeCheck {
    @Override
    public Result check(Expr.Sequence program, Library library) {
        Map<String, String> types = library.types();
        Signatures signatures =
                new Signatures() {
                    @Override
                    public Map<String, String> types() {
                        return types;
                    }

                    @Override
                    public boolean hasEncoder(String name) {
                        return library.hasEncoder(name);
                    }
                };
        try {
            TypeChecker checker = TypeChecker.of(signatures);
            TypeChecker.Checked checked = checker.check(program, null);
            return new Result(List.of(), checked.jsonTypes(), evalCheck(checker, checked));
        } catch (TypeError e) {
            return Result.of(new Problem(e.span(), e.detail()));
        }
    }

    /** What a {@code let eval} evaluates, checked in the scope the script's top level left. */
    private static EvalCheck evalCheck(TypeChecker checker, TypeChecker.Checked script) {
        return (program, expected) -> {
            try {
                checker.checkEval(program, script, expected);
                return Optional.empty();
            } catch (TypeError e) {
                return Optional.of(e.getMessage());
            }
        };
    }
}
