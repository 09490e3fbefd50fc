package org.groovecast.liquidsoap.syntax;

/**
 * A time literal of a predicate, {@code 1w}, {@code 8h}, {@code 12h30m}, {@code 0m}, {@code 10s}:
 * each part null when it is not written (Liquidsoap matches on the parts written only).
 */
public record TimeSpec(Integer weeks, Integer hours, Integer minutes, Integer seconds) {}
