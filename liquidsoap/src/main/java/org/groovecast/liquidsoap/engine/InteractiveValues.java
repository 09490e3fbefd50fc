package org.groovecast.liquidsoap.engine;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.HasFields;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.net.control.Interactive;

/**
 * {@code interactive.float("volume", 1.)} as Liquidsoap scripts use it: a getter ({@code v()}, or
 * given where a {@code {float}} goes) with {@code set} and {@code remove} fields; the control's
 * {@code var.set} changes the same variable. Handed back to an operator it is the engine's variable
 * itself, which the operator reads on its clock without calling into the script. Once removed, the
 * script can no longer set it (the control still lists it: the engine's variables live as long as
 * the station).
 */
final class InteractiveValues extends Fn implements HasFields {
    private final Interactive var;
    private final Map<String, Fn> all;

    InteractiveValues(Interactive var, Map<String, Fn> all) {
        this.var = var;
        this.all = all;
    }

    Interactive variable() {
        return var;
    }

    @Override
    public String name() {
        return "interactive " + var.name();
    }

    @Override
    public List<Parameter> parameters() {
        return List.of();
    }

    @Override
    protected Object invoke(Object[] bound, boolean[] given, Call call) {
        return EngineValues.toLiquidsoap(var.getValue());
    }

    @Override
    public Object field(String name) {
        return switch (name) {
            case "set" ->
                    Builtin.of(
                            "interactive.set",
                            List.of(Parameter.positional()),
                            a -> {
                                if (all.get(var.name()) != this)
                                    throw Errors.notFound(
                                            "interactive variable " + var.name() + " was removed");
                                Object v = Values.base(a.get(0));
                                var.setValue(v instanceof Long l ? (Object) l.doubleValue() : v);
                                return Tuple.UNIT;
                            });
            case "remove" ->
                    Builtin.of(
                            "interactive.remove",
                            List.of(),
                            a -> {
                                all.remove(var.name(), this);
                                return Tuple.UNIT;
                            });
            default -> Env.MISSING;
        };
    }

    @Override
    public Set<String> fieldNames() {
        return Set.of("set", "remove");
    }
}
