package org.groovecast.api;

/**
 * The values a number or integer parameter takes, {@code min} to {@code max}, both included ({@link
 * OperatorSpec.Builder#range}): a script's value outside them is refused at its line, a literal
 * when the script is checked, a computed value when the call binds.
 *
 * @param min the smallest value taken
 * @param max the largest value taken
 */
public record Bounds(double min, double max) {
    public Bounds {
        if (!(min <= max))
            throw new IllegalArgumentException("bounds need min <= max, got " + min + ", " + max);
    }

    public boolean contains(double value) {
        return value >= min && value <= max;
    }

    /** How messages say them: {@code from 1 to 65535}. */
    @Override
    public String toString() {
        return "from " + shown(min) + " to " + shown(max);
    }

    private static String shown(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15
                ? String.valueOf((long) d)
                : String.valueOf(d);
    }
}
