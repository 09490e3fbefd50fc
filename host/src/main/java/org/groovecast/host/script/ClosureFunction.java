package org.groovecast.host.script;

import groovy.lang.Closure;
import org.groovecast.api.UserFunction;

/**
 * A script closure as operators call it; the engine's own functions also ask how many arguments it
 * takes.
 */
public final class ClosureFunction implements UserFunction {
    private final Closure<?> closure;

    ClosureFunction(Closure<?> closure) {
        this.closure = closure;
    }

    @Override
    public Object call(Object... args) {
        return closure.call(args);
    }

    /**
     * The most arguments the closure declares ({@code { it }} and {@code { a -> }} take 1, {@code {
     * -> }} 0).
     */
    public int parameters() {
        return closure.getMaximumNumberOfParameters();
    }

    /** How many arguments {@code f} takes, or {@code fallback} when it is not a script closure. */
    public static int parameters(UserFunction f, int fallback) {
        return f instanceof ClosureFunction c ? c.parameters() : fallback;
    }
}
