package org.groovecast.liquidsoap.types;

import java.util.Map;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.prelude.TypeCheck;
import org.groovecast.liquidsoap.syntax.Expr;

/**
 * The front end's type check ({@link TypeCheck}, found with {@link java.util.ServiceLoader}): the
 * script checked against the names its station's {@link Library} registers with their types (the
 * prelude's functions, prelude.liq's definitions, the station's operators), {@code %ifencoder}
 * holding for the encoders the station has. Like Liquidsoap, it stops at the first error.
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
            TypeChecker.Checked checked = TypeChecker.of(signatures).check(program, null);
            return new Result(java.util.List.of(), checked.jsonTypes());
        } catch (TypeError e) {
            return Result.of(new Problem(e.span(), e.detail()));
        }
    }
}
