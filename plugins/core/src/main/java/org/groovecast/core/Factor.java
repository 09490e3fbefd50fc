package org.groovecast.core;

import java.util.function.DoubleSupplier;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A number that a script may give as a constant ({@code 0.5}), a function ({@code { -> vol.value
 * }}) or any {@link DoubleSupplier} (an interactive variable). Functions run on the clock at every
 * read; one that fails or returns something other than a number is logged once and the last good
 * value kept, so that a typo in a control does not stop the station.
 */
final class Factor implements DoubleSupplier {
    private static final Logger log = LoggerFactory.getLogger(Factor.class);

    /** What the function answers where it fails: the last value holds. */
    private static final Object FAILED = new Object();

    private final String operator;
    private final UserFunction function;
    private double last;
    private boolean reported;

    private Factor(String operator, UserFunction function, double initial) {
        this.operator = operator;
        this.function = function;
        this.last = initial;
    }

    /**
     * The value as a supplier; throws a script error for anything else than a number, a function or
     * a supplier.
     */
    static DoubleSupplier of(String operator, String param, Object value) {
        if (value instanceof Number n) {
            double d = n.doubleValue();
            return () -> d;
        }
        if (value instanceof DoubleSupplier s) return s;
        if (value instanceof UserFunction f) {
            // Called once now, so that a function that cannot give a number is a script error with
            // its line.
            Object first = f.call();
            if (!(first instanceof Number n) || !Double.isFinite(n.doubleValue())) {
                throw new ScriptException(
                        operator
                                + "(): the "
                                + param
                                + " function returned "
                                + first
                                + ", not a number");
            }
            return new Factor(operator, f, n.doubleValue());
        }
        throw new ScriptException(
                operator
                        + "() expects a number or a function for "
                        + param
                        + ", got "
                        + (value instanceof CharSequence t
                                ? "String \"" + t + "\""
                                : value == null
                                        ? "null"
                                        : value.getClass().getSimpleName() + " " + value));
    }

    @Override
    public double getAsDouble() {
        Object v;
        try {
            v = function.callOr(FAILED);
        } catch (RuntimeException e) {
            report("failed: " + e);
            return last;
        }
        if (v == FAILED) return last; // logged by the host
        if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            last = n.doubleValue();
        } else {
            report("returned " + v + ", not a number");
        }
        return last;
    }

    private void report(String what) {
        if (reported) return;
        reported = true;
        log.warn("{}(): the factor function {}; keeping {} (logged once)", operator, what, last);
    }
}
