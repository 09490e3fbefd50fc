package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.groovecast.liquidsoap.eval.Fn;

/**
 * How one engine operator is called from Liquidsoap where that differs from the naming rule: its
 * Liquidsoap name, the order of its positional arguments, labels named otherwise, Liquidsoap labels
 * it accepts and leaves out (said once in the log), and adapters for the functions it is given and
 * the value it answers.
 */
final class Mapping {
    final String liquidsoap;
    final String engine;

    /** Liquidsoap's positional arguments as indexes of the engine's, or null: the same order. */
    int[] order;

    final Map<String, String> labels = new LinkedHashMap<>();
    final Set<String> ignored = new LinkedHashSet<>();

    /**
     * By Liquidsoap label ({@code "#0"} for the first positional): the script's function as the
     * engine calls it.
     */
    final Map<String, Function<Fn, Fn>> functions = new LinkedHashMap<>();

    /** By Liquidsoap label ({@code "#0"}...): a value turned before the usual conversion. */
    final Map<String, Function<Object, Object>> arguments = new LinkedHashMap<>();

    /** The operator's answer as the script sees it. */
    Function<Object, Object> result = Function.identity();

    /** A function's answer turned before the engine sees it (a request into its URI). */
    Function<Object, Object> functionResult = Function.identity();

    Mapping(String liquidsoap, String engine) {
        this.liquidsoap = liquidsoap;
        this.engine = engine;
    }

    Mapping order(int... order) {
        this.order = order;
        return this;
    }

    Mapping label(String liquidsoap, String engine) {
        labels.put(liquidsoap, engine);
        return this;
    }

    Mapping ignore(String... liquidsoapLabels) {
        ignored.addAll(List.of(liquidsoapLabels));
        return this;
    }

    Mapping function(String label, Function<Fn, Fn> adapter) {
        functions.put(label, adapter);
        return this;
    }

    Mapping argument(String label, Function<Object, Object> adapter) {
        arguments.put(label, adapter);
        return this;
    }

    Mapping result(Function<Object, Object> adapter) {
        this.result = adapter;
        return this;
    }

    Mapping functionResult(Function<Object, Object> adapter) {
        this.functionResult = adapter;
        return this;
    }
}
