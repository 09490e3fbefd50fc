package org.groovecast.liquidsoap.engine;

import java.util.List;
import java.util.Set;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.HasFields;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.net.control.Interactive;

/**
 * {@code interactive.float("volume", 1.)} as Liquidsoap scripts use it: a getter ({@code v()}, or
 * given where a {@code {float}} goes) with a {@code set} field; the control's {@code var.set}
 * changes the same variable. Handed back to an operator it is the engine's variable itself, which
 * the operator reads on its clock without calling into the script.
 */
final class InteractiveValues extends Fn implements HasFields {
    private final Interactive var;

    private InteractiveValues(Interactive var) {
        this.var = var;
    }

    static Object of(Object answer) {
        return answer instanceof Interactive var ? new InteractiveValues(var) : answer;
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
        if (name.equals("remove")) {
            // Liquidsoap's removes the variable's OSC binding: Groovecast has none
            return Builtin.of("interactive.remove", List.of(), a -> Tuple.UNIT);
        }
        if (!name.equals("set")) return Env.MISSING;
        return Builtin.of(
                "interactive.set",
                List.of(Parameter.positional()),
                a -> {
                    Object v = Values.base(a.get(0));
                    var.setValue(v instanceof Long l ? (Object) l.doubleValue() : v);
                    return Tuple.UNIT;
                });
    }

    @Override
    public Set<String> fieldNames() {
        return Set.of("set", "remove");
    }
}
