package org.groovecast.liquidsoap.types;

/**
 * A failed subtyping, with the two types shown as far as they explain it (the rest left out as
 * {@code _}): the checker turns it into a located message. Thrown often while checking, so it
 * carries no stack trace.
 */
final class Mismatch extends RuntimeException {
    private final Repr left;
    private final Repr right;

    Mismatch(Repr left, Repr right) {
        super(null, null, false, false);
        this.left = left;
        this.right = right;
    }

    /** What the value is. */
    Repr left() {
        return left;
    }

    /** What it should have been a subtype of. */
    Repr right() {
        return right;
    }
}
