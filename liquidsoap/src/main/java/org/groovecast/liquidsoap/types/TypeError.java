package org.groovecast.liquidsoap.types;

import org.groovecast.liquidsoap.syntax.Span;

/**
 * A script that does not type-check: one located message in Liquidsoap's words, {@code
 * station.liq:12:4: this value has type int but it should be a subtype of float}. It is the script
 * author's mistake, so it carries no stack trace.
 */
public final class TypeError extends RuntimeException {
    private final Span span;
    private final String detail;

    public TypeError(Span span, String detail) {
        super(span + ": " + detail, null, false, false);
        this.span = span;
        this.detail = detail;
    }

    /** Where the offending expression is. */
    public Span span() {
        return span;
    }

    /** The message without its location. */
    public String detail() {
        return detail;
    }
}
