package org.groovecast.liquidsoap.syntax;

/** Something accepted that Liquidsoap warns about (a stray backslash, a deprecated form). */
public record Warning(Span span, String message) {
    @Override
    public String toString() {
        return span + ": warning: " + message;
    }
}
