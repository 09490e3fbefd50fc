package org.groovecast.core;

import java.util.Arrays;
import java.util.List;
import org.groovecast.api.Arguments;
import org.groovecast.api.ScriptException;

/** Reads the {@code weights:} argument of rotate, random and add. */
final class Weights {
    private Weights() {}

    static double[] of(Arguments args, int sources) {
        double[] w = new double[sources];
        List<?> given = args.list("weights");
        if (given == null || given.isEmpty()) {
            Arrays.fill(w, 1.0);
            return w;
        }
        if (given.size() != sources) {
            throw new ScriptException(
                    args.operator()
                            + "(): "
                            + given.size()
                            + " weights for "
                            + sources
                            + " sources");
        }
        for (int i = 0; i < sources; i++) {
            if (!(given.get(i) instanceof Number n) || n.doubleValue() < 0) {
                throw new ScriptException(
                        args.operator() + "(): weights must be numbers >= 0, got " + given.get(i));
            }
            w[i] = n.doubleValue();
        }
        return w;
    }

    static int[] integers(Arguments args, int sources) {
        double[] w = of(args, sources);
        int[] out = new int[w.length];
        for (int i = 0; i < w.length; i++) {
            if (w[i] != Math.rint(w[i])) {
                throw new ScriptException(
                        args.operator() + "(): weights must be whole numbers, got " + w[i]);
            }
            out[i] = (int) w[i];
        }
        return out;
    }
}
