package org.groovecast.liquidsoap.prelude;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.HasFields;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * {@code interactive.float("x", 2.)} and its kin without an engine: named variables a script reads
 * as getters and sets, saved to and loaded from a JSON file. On a station the engine's own
 * interactive variables (which its control's {@code var.set} changes) replace the float, bool and
 * string ones.
 */
final class InteractiveFunctions {
    private InteractiveFunctions() {}

    /** One variable: a getter with {@code set} and {@code remove}. */
    private static final class Variable extends Fn implements HasFields {
        private final String name;
        private final Map<String, Variable> all;
        private volatile Object value;

        Variable(String name, Object value, Map<String, Variable> all) {
            this.name = name;
            this.value = value;
            this.all = all;
        }

        @Override
        public String name() {
            return "interactive " + name;
        }

        @Override
        public List<Parameter> parameters() {
            return List.of();
        }

        @Override
        protected Object invoke(Object[] bound, boolean[] given, Call call) {
            return value;
        }

        private void alive() {
            if (all.get(name) != this)
                throw Errors.notFound("interactive variable " + name + " was removed");
        }

        @Override
        public Object field(String field) {
            return switch (field) {
                case "set" ->
                        Builtin.of(
                                "interactive.set",
                                List.of(Parameter.positional()),
                                a -> {
                                    alive();
                                    value = a.get(0);
                                    return Tuple.UNIT;
                                });
                case "remove" ->
                        Builtin.of(
                                "interactive.remove",
                                List.of(),
                                a -> {
                                    all.remove(name, this);
                                    return Tuple.UNIT;
                                });
                default -> Env.MISSING;
            };
        }

        @Override
        public java.util.Set<String> fieldNames() {
            return java.util.Set.of("set", "remove");
        }
    }

    static void register(Library lib, Platform platform) {
        Map<String, Variable> all = new ConcurrentHashMap<>();
        for (String kind : List.of("float", "int", "bool", "string")) {
            String t = kind;
            String bounds =
                    kind.equals("float") || kind.equals("int")
                            ? "?min : " + t + ", ?max : " + t + ", ?step : " + t + ", "
                            : "";
            lib.function(
                    "interactive." + kind,
                    "(?description : string, "
                            + bounds
                            + "?unit : string, ?persistent : bool, ?osc : string, string, "
                            + t
                            + ") -> (() -> "
                            + t
                            + ").{set : ("
                            + t
                            + ") -> unit, remove : () -> unit}",
                    "A variable the script (and its control) can change: read it as v(), set it with v.set(x).",
                    a -> {
                        String name = a.string(a.size() - 2);
                        Variable v = new Variable(name, a.get(a.size() - 1), all);
                        if (all.putIfAbsent(name, v) != null) {
                            throw Errors.invalid(
                                    "interactive variable " + name + " is already registered");
                        }
                        return v;
                    });
        }
        InteractiveFiles.register(lib, () -> new java.util.TreeMap<String, Fn>(all));
    }
}
