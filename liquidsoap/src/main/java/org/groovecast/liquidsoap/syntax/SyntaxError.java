package org.groovecast.liquidsoap.syntax;

/**
 * A script that cannot be read: one located message, {@code station.liq:12:4: syntax error:
 * unexpected `end`}. It is the script author's mistake, so it carries no stack trace.
 */
public final class SyntaxError extends RuntimeException {
    private final Span span;
    private final String detail;

    public SyntaxError(Span span, String detail) {
        super(span + ": syntax error: " + detail, null, false, false);
        this.span = span;
        this.detail = detail;
    }

    public Span span() {
        return span;
    }

    /** The message without its location. */
    public String detail() {
        return detail;
    }
}
