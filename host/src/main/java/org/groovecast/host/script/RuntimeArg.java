package org.groovecast.host.script;

import groovy.lang.Closure;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;

/** An argument value at run time. */
record RuntimeArg(Object value) implements Arg {
    @Override
    public boolean isFunction() {
        return value instanceof Closure<?> || value instanceof UserFunction;
    }

    @Override
    public Boolean fits(ValueType type) {
        return Values.fits(type, value);
    }

    @Override
    public String describe() {
        return Values.describe(value);
    }

    @Override
    public List<RuntimeArg> elements() {
        if (value instanceof List<?> l) return l.stream().map(RuntimeArg::new).toList();
        if (value instanceof Object[] a) return Arrays.stream(a).map(RuntimeArg::new).toList();
        return null;
    }

    @Override
    public Double number() {
        return value instanceof Number n ? n.doubleValue() : null;
    }

    @Override
    public Object known() {
        return value;
    }

    /**
     * A closure's parameters at run time: its most, or any number from one less for varargs.
     * Whether a parameter has a default is not known here, so fewer arguments pass; a closure of
     * one parameter takes none too, as Groovy calls it with null.
     */
    @Override
    public int[] takes() {
        if (!(value instanceof Closure<?> c)) return null;
        Class<?>[] types = c.getParameterTypes();
        int max = c.getMaximumNumberOfParameters();
        if (types.length > 0 && types[types.length - 1].isArray())
            return new int[] {0, Integer.MAX_VALUE};
        return new int[] {0, max};
    }

    @Override
    public Map<String, RuntimeArg> entries() {
        if (!(value instanceof Map<?, ?> m)) return null;
        Map<String, RuntimeArg> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getKey() instanceof CharSequence k)) return null;
            out.put(k.toString(), new RuntimeArg(e.getValue()));
        }
        return out;
    }
}
