package org.groovecast.liquidsoap.eval;

import java.util.List;
import org.groovecast.liquidsoap.syntax.Span;

/** Making the evaluator's and the library's own errors. */
public final class Errors {
    private Errors() {}

    /** An error of {@code kind} at {@code at} (null: located later, at the call that led to it). */
    public static LiqError at(Span at, String kind, String message) {
        return new LiqError(new ErrorValue(kind, message, List.of()), at, false);
    }

    /** An error of the library, located at the call that led to it. */
    public static LiqError of(String kind, String message) {
        return at(null, kind, message);
    }

    /** A value of the wrong kind where the library expected another. */
    public static LiqError invalid(String message) {
        return of("invalid", message);
    }

    public static LiqError notFound(String message) {
        return of("not_found", message);
    }
}
