package org.groovecast.liquidsoap.types;

/**
 * A type grew past what the checker agrees to work on (a script can make types exponentially large:
 * {@code def f(x) = (x, x) end} applied to itself twenty times): a located error rather than a
 * hang.
 */
final class TooComplex extends RuntimeException {
    TooComplex() {
        super(null, null, false, false);
    }
}
