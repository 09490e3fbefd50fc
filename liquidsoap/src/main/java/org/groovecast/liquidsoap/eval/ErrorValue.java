package org.groovecast.liquidsoap.eval;

import java.util.List;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * A Liquidsoap error: its kind ({@code not_found}, {@code failure}, or one a script registered with
 * {@code error.register}), its message, and where it was raised (empty for a kind not raised yet).
 * A script reads them as {@code err.kind}, {@code err.message}.
 */
public record ErrorValue(String kind, String message, List<Span> positions) {
    public static ErrorValue kind(String kind) {
        return new ErrorValue(kind, "", List.of());
    }

    @Override
    public String toString() {
        return "error(kind=" + Show.quote(kind) + ", message=" + Show.quote(message) + ")";
    }
}
