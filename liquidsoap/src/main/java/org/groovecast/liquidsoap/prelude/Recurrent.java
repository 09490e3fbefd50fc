package org.groovecast.liquidsoap.prelude;

import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * {@code thread.run.recurrent}: the function runs, and runs again after as many seconds as it
 * answered, until it answers a negative number.
 */
final class Recurrent {
    private Recurrent() {}

    static void start(Platform platform, double delay, boolean fast, Fn f) {
        platform.runLater(delay, 0, fast, step(platform, fast, f));
    }

    private static Fn step(Platform platform, boolean fast, Fn f) {
        return Builtin.of(
                "thread.run.recurrent",
                java.util.List.of(),
                a -> {
                    Object next = f.call();
                    if (Values.base(next) instanceof Number n && n.doubleValue() >= 0) {
                        platform.runLater(n.doubleValue(), 0, fast, step(platform, fast, f));
                    }
                    return Tuple.UNIT;
                });
    }
}
