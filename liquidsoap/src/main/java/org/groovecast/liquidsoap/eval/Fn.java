package org.groovecast.liquidsoap.eval;

import java.util.List;

/**
 * A function value: a script's closure, a builtin, a reference's reader. Applying one matches the
 * arguments to the parameters as Liquidsoap does: each labelled argument to the first parameter of
 * its label not yet given, each positional one to the first positional parameter not yet given;
 * parameters left out take their default, and one without a default is an error (the type checker
 * refuses such a call before anything runs; without it the error comes here, at the call).
 */
public abstract class Fn {
    /** The name messages use: the defined name, or {@code fun}. */
    public abstract String name();

    public abstract List<Parameter> parameters();

    /** Runs the function on arguments already bound, one per parameter, in their order. */
    protected abstract Object invoke(Object[] bound, boolean[] given, Call call);

    /** Applies the function to {@code call}'s arguments. */
    public final Object apply(Call call) {
        List<Parameter> params = parameters();
        boolean[] given = new boolean[params.size()];
        return invoke(bind(call, params, given), given, call);
    }

    /** Applies it to positional arguments, from the engine or a builtin. */
    public final Object call(Object... positional) {
        return apply(Call.of(null, positional));
    }

    private Object[] bind(Call call, List<Parameter> params, boolean[] given) {
        int n = params.size();
        Object[] bound = new Object[n];
        for (int a = 0; a < call.size(); a++) {
            String label = call.labels().get(a);
            int i = 0;
            while (i < n && (given[i] || !params.get(i).label().equals(label))) i++;
            if (i == n) throw wrongArgument(label, call);
            bound[i] = call.values().get(a);
            given[i] = true;
        }
        for (int i = 0; i < n; i++) {
            if (given[i]) continue;
            Parameter p = params.get(i);
            if (!p.optional()) throw missing(p, i, call);
            bound[i] = p.defaultValue();
        }
        return bound;
    }

    private RuntimeException wrongArgument(String label, Call call) {
        if (label.isEmpty()) {
            long positional = parameters().stream().filter(Parameter::isPositional).count();
            return Errors.at(
                    call.at(),
                    "invalid",
                    name()
                            + " takes "
                            + (positional == 0 ? "no" : "at most " + positional)
                            + " positional argument"
                            + (positional == 1 ? "" : "s"));
        }
        List<String> labels =
                parameters().stream()
                        .filter(p -> !p.isPositional())
                        .map(Parameter::label)
                        .distinct()
                        .toList();
        boolean known = labels.contains(label);
        String hint =
                known
                        ? name() + " is given ~" + label + " twice"
                        : name()
                                + " has no argument labelled "
                                + label
                                + Names.didYouMean(label, labels)
                                + (labels.isEmpty()
                                        ? ""
                                        : " (its labels: " + String.join(", ", labels) + ")");
        return Errors.at(call.at(), "invalid", hint);
    }

    private RuntimeException missing(Parameter p, int index, Call call) {
        int positional = 0;
        for (int i = 0; i < index; i++) if (parameters().get(i).isPositional()) positional++;
        String what =
                p.isPositional()
                        ? "its " + ordinal(positional + 1) + " positional argument"
                        : "its argument ~" + p.label();
        return Errors.at(call.at(), "invalid", name() + " is missing " + what);
    }

    static String ordinal(int n) {
        return switch (n) {
            case 1 -> "first";
            case 2 -> "second";
            case 3 -> "third";
            case 4 -> "fourth";
            default -> n + "th";
        };
    }

    @Override
    public String toString() {
        return "<fun>";
    }
}
