package org.groovecast.liquidsoap.eval;

/**
 * A parameter of a function value: its label ({@code ""} for a positional one), whether it may be
 * left out, and then its value (evaluated once, when the function is made, as Liquidsoap does).
 */
public record Parameter(String label, boolean optional, Object defaultValue) {
    public static Parameter positional() {
        return new Parameter("", false, null);
    }

    public static Parameter labelled(String label) {
        return new Parameter(label, false, null);
    }

    public boolean isPositional() {
        return label.isEmpty();
    }

    /** How a message names it: {@code ~x} or {@code the 2nd argument}. */
    public String describe(int positionalIndex) {
        if (!isPositional()) return "~" + label;
        return "argument " + (positionalIndex + 1);
    }
}
