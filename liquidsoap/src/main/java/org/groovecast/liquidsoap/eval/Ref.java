package org.groovecast.liquidsoap.eval;

import java.util.List;
import java.util.Set;

/**
 * A reference, {@code ref(0)}: a function of no argument that reads it, with a {@code set} field
 * ({@code r := v} is {@code r.set(v)}). Safe to read and set from any thread: the engine calls the
 * script's functions from its own.
 */
public final class Ref extends Fn implements HasFields {
    private volatile Object value;
    private final Fn setter;

    public Ref(Object initial) {
        this.value = initial;
        this.setter =
                Builtin.of(
                        "ref.set",
                        List.of(Parameter.positional()),
                        a -> {
                            value = a.get(0);
                            return Tuple.UNIT;
                        });
    }

    public Object get() {
        return value;
    }

    public void set(Object v) {
        value = v;
    }

    @Override
    public String name() {
        return "ref";
    }

    @Override
    public List<Parameter> parameters() {
        return List.of();
    }

    @Override
    protected Object invoke(Object[] bound, boolean[] given, Call call) {
        return value;
    }

    @Override
    public Object field(String name) {
        return name.equals("set") ? setter : Env.MISSING;
    }

    @Override
    public Set<String> fieldNames() {
        return Set.of("set");
    }
}
