package org.groovecast.liquidsoap.eval;

/**
 * Getters, {@code {float}}: a constant or a function of no argument, read again each time (a volume
 * a script changes while the stream plays).
 */
public final class Getters {
    private Getters() {}

    public static Object get(Object getter) {
        if (Values.base(getter) instanceof Fn f
                && f.parameters().stream().allMatch(Parameter::optional)) {
            return f.call();
        }
        return getter;
    }
}
