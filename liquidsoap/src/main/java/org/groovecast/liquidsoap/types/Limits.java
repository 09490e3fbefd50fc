package org.groovecast.liquidsoap.types;

/** Bounds that keep the checker from running away on a hostile script. */
final class Limits {
    private Limits() {}

    /**
     * How deeply a type may nest (the parser bounds a script's nesting to 512; a type can nest
     * deeper by definitions that wrap their argument, one line each).
     */
    static final int DEPTH = 2_000;

    /** Steps of subtyping and occur checks per script: about a minute of work, then an error. */
    static final long STEPS = 200_000_000L;
}
