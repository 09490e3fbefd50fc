package org.groovecast.liquidsoap.eval;

import java.util.List;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * The arguments a builtin receives, one per declared parameter in declaration order (left out
 * optional ones hold their default), with typed reads that fail as Liquidsoap's type checker would
 * have refused the call.
 */
public final class Args {
    private final String function;
    private final Object[] values;
    private final boolean[] given;
    private final Call call;

    Args(String function, Object[] values, boolean[] given, Call call) {
        this.function = function;
        this.values = values;
        this.given = given;
        this.call = call;
    }

    /** Whether the call gave parameter {@code i} (else it holds its default). */
    public boolean given(int i) {
        return given[i];
    }

    /** The function's name, for messages. */
    public String function() {
        return function;
    }

    /** Where the call was written, or null for one the engine made. */
    public Span at() {
        return call == null ? null : call.at();
    }

    public Call call() {
        return call;
    }

    public int size() {
        return values.length;
    }

    public Object get(int i) {
        return values[i];
    }

    public boolean isNull(int i) {
        return Values.base(values[i]) == null;
    }

    public String string(int i) {
        Object v = Values.base(values[i]);
        if (v instanceof String s) return s;
        throw wrong(i, "a string");
    }

    public long integer(int i) {
        Object v = Values.base(values[i]);
        if (v instanceof Long l) return l;
        if (v instanceof Double d && d == Math.rint(d)) return d.longValue();
        throw wrong(i, "an integer");
    }

    public double number(int i) {
        Object v = Values.base(values[i]);
        if (v instanceof Number n) return n.doubleValue();
        throw wrong(i, "a float");
    }

    public boolean bool(int i) {
        Object v = Values.base(values[i]);
        if (v instanceof Boolean b) return b;
        throw wrong(i, "a boolean");
    }

    public List<Object> list(int i) {
        Object v = Values.base(values[i]);
        if (v instanceof List<?> l) {
            @SuppressWarnings("unchecked")
            List<Object> objects = (List<Object>) l;
            return objects;
        }
        throw wrong(i, "a list");
    }

    public Fn fn(int i) {
        Object v = Values.base(values[i]);
        if (v instanceof Fn f) return f;
        throw wrong(i, "a function");
    }

    public Tuple tuple(int i) {
        Object v = Values.base(values[i]);
        if (v instanceof Tuple t) return t;
        throw wrong(i, "a tuple");
    }

    /** A getter's current value: the value itself, or what the function answers. */
    public Object getter(int i) {
        return Getters.get(values[i]);
    }

    public LiqError wrong(int i, String expected) {
        return Errors.at(
                at(),
                "invalid",
                function
                        + " expects "
                        + expected
                        + " for its "
                        + (i + 1 == 1 ? "first" : Fn.ordinal(i + 1))
                        + " parameter, got "
                        + Values.describe(values[i]));
    }
}
