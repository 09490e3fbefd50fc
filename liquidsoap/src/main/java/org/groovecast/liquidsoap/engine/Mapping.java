package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.groovecast.host.http.HttpFailure;
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

    /** Liquidsoap labels accepted and left out, with their Liquidsoap types (null: any value). */
    final Map<String, String> ignored = new LinkedHashMap<>();

    /**
     * By Liquidsoap label ({@code "#0"} for the first positional): the parameter's Liquidsoap type
     * where the one derived from the engine's declaration says less ({@code amplify}'s factor,
     * {@code ANY} to the engine, is a {@code {float}}). {@code 'a} is the content of the operator's
     * sources.
     */
    final Map<String, String> types = new LinkedHashMap<>();

    /** The type of the answer where the derived one says less; null: derived. */
    String returns;

    /** By Liquidsoap name: the types of the methods the operator declares on what it answers. */
    final Map<String, String> methods = new LinkedHashMap<>();

    /**
     * By Liquidsoap label ({@code "#0"} for the first positional): the script's function as the
     * engine calls it.
     */
    final Map<String, Function<Fn, Fn>> functions = new LinkedHashMap<>();

    /** By Liquidsoap label ({@code "#0"}...): a value turned before the usual conversion. */
    final Map<String, Function<Object, Object>> arguments = new LinkedHashMap<>();

    /** The operator's answer as the script sees it. */
    Function<Object, Object> result = Function.identity();

    /**
     * An HTTP request of the operator that got no answer, as the script sees it (Liquidsoap's
     * http.* answer a status); null: an error of kind {@code http}.
     */
    Function<HttpFailure, Object> httpFailure;

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

    /** Labels left out: {@code "smart : bool"} with its Liquidsoap type, or a bare label. */
    Mapping ignore(String... liquidsoapLabels) {
        for (String l : liquidsoapLabels) {
            int colon = l.indexOf(" : ");
            if (colon < 0) ignored.put(l, null);
            else ignored.put(l.substring(0, colon), l.substring(colon + 3));
        }
        return this;
    }

    /** The Liquidsoap type of parameter {@code label} ({@code "#0"} for the first positional). */
    Mapping type(String label, String type) {
        types.put(label, type);
        return this;
    }

    Mapping returns(String type) {
        this.returns = type;
        return this;
    }

    /** The type of the method {@code name} (Liquidsoap's name) of what the operator answers. */
    Mapping method(String name, String type) {
        methods.put(name, type);
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

    Mapping httpFailure(Function<HttpFailure, Object> adapter) {
        this.httpFailure = adapter;
        return this;
    }

    Mapping functionResult(Function<Object, Object> adapter) {
        this.functionResult = adapter;
        return this;
    }
}
