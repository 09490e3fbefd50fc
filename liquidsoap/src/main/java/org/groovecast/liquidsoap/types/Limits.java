package org.groovecast.liquidsoap.types;

/** Bounds that keep the checker from running away on a hostile script. */
final class Limits {
    private Limits() {}

    /**
     * How deeply a type may nest (the parser bounds a script's nesting to 512; a type can nest
     * deeper by definitions that wrap their argument, one line each).
     */
    static final int DEPTH = 2_000;

    /**
     * Steps of subtyping and occur checks per script: a few seconds of work, then an error.
     * Liquidsoap's whole library takes about a million.
     */
    static final long STEPS = 50_000_000L;
}
