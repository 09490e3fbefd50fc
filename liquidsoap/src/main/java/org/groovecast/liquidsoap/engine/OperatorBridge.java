package org.groovecast.liquidsoap.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Param;
import org.groovecast.api.ValueType;
import org.groovecast.host.http.HttpFailure;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.liquidsoap.eval.Args;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * Every operator of the station's table (the engine's and every plugin's, a third party's too) as a
 * Liquidsoap function: named by {@link OperatorNames}' rule or its {@link Mapping}; named
 * parameters are labelled arguments, positional ones unlabelled; its type, registered in the {@link
 * Library} for the type checker, derived from its declaration by the same rule. A call goes through
 * the engine's runtime as a Groovy script's does, so each source is numbered and recorded in the
 * station's graph at the script's line.
 */
final class OperatorBridge {
    /** Makes the engine call: {@code args} as the runtime takes them, a map of named ones first. */
    interface Caller {
        Object call(String operator, Object[] args, Span at);
    }

    private final EngineValues values;
    private final Caller caller;
    private final Consumer<String> note;
    private final Set<String> noted = ConcurrentHashMap.newKeySet();

    OperatorBridge(EngineValues values, Caller caller, Consumer<String> note) {
        this.values = values;
        this.caller = caller;
        this.note = note;
    }

    /**
     * Registers every operator of {@code functions} in {@code lib}, under its Liquidsoap name,
     * unless the prelude already defines that name the Liquidsoap way ({@code thread.run}, {@code
     * json.stringify}...), which then wins; a {@link Mapping} always does.
     */
    void register(Library lib, ScriptFunctions functions, Mappings mappings) {
        for (OperatorSpec spec : functions.all()) {
            Mapping m = mappings.forEngine(spec.name());
            boolean mapped = m != null;
            if (m == null) m = new Mapping(OperatorNames.toLiquidsoap(spec.name()), spec.name());
            if (!mapped && lib.has(m.liquidsoap)) continue;
            register(lib, spec, m);
        }
    }

    /** The parameters a Liquidsoap call of {@code spec} takes, in order, with their engine side. */
    private record Slot(
            Parameter parameter,
            String type,
            Param engine,
            int enginePosition,
            boolean id,
            boolean ignored) {}

    private void register(Library lib, OperatorSpec spec, Mapping m) {
        List<Slot> slots = slots(spec, m);
        List<Parameter> params = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (Slot s : slots) {
            params.add(s.parameter);
            types.add(s.type);
        }
        String type = "(" + String.join(", ", types) + ") -> " + resultType(spec, m);
        lib.function(m.liquidsoap, type, spec.doc(), params, a -> call(spec, m, slots, a));
    }

    private List<Slot> slots(OperatorSpec spec, Mapping m) {
        List<Slot> slots = new ArrayList<>();
        Map<String, String> toLiquidsoap = new LinkedHashMap<>();
        m.labels.forEach((liq, eng) -> toLiquidsoap.put(eng, liq));
        int[] var = {0};
        for (Param p : spec.named()) {
            String label =
                    toLiquidsoap.getOrDefault(p.name(), OperatorNames.toLiquidsoap(p.name()));
            String t = m.types.getOrDefault(label, parameterType(spec, p, var));
            boolean optional = !p.required();
            slots.add(
                    new Slot(
                            new Parameter(label, optional, null),
                            (optional ? "?" : "") + label + " : " + t,
                            p,
                            -1,
                            false,
                            false));
        }
        boolean source = spec.returns() == ValueType.SOURCE || spec.returns() == ValueType.OUTPUT;
        if (source && spec.namedParam("id").isEmpty()) {
            slots.add(
                    new Slot(
                            new Parameter("id", true, null),
                            "?id : string?",
                            null,
                            -1,
                            true,
                            false));
        }
        for (Map.Entry<String, String> ignored : m.ignored.entrySet()) {
            String t = ignored.getValue() != null ? ignored.getValue() : "'i" + var[0]++;
            slots.add(
                    new Slot(
                            new Parameter(ignored.getKey(), true, null),
                            "?" + ignored.getKey() + " : " + t,
                            null,
                            -1,
                            false,
                            true));
        }
        List<Param> positional = spec.positional();
        int n = positional.size();
        for (int j = 0; j < n; j++) {
            int e = m.order == null ? j : m.order[j];
            Param p = positional.get(e);
            String t = m.types.getOrDefault("#" + j, parameterType(spec, p, var));
            boolean optional = !p.required();
            slots.add(
                    new Slot(
                            new Parameter("", optional, null),
                            (optional ? "?" : "") + t,
                            p,
                            e,
                            false,
                            false));
        }
        return slots;
    }

    private Object call(OperatorSpec spec, Mapping m, List<Slot> slots, Args a) {
        Map<String, Object> named = new LinkedHashMap<>();
        Object[] positional = new Object[spec.positional().size()];
        boolean[] given = new boolean[positional.length];
        int positionalIndex = 0;
        for (int i = 0; i < slots.size(); i++) {
            Slot s = slots.get(i);
            String key = s.parameter.isPositional() ? "#" + positionalIndex++ : s.parameter.label();
            if (!a.given(i)) continue;
            Object v = a.get(i);
            if (s.ignored) {
                if (noted.add(m.liquidsoap + "." + s.parameter.label())) {
                    note.accept(
                            m.liquidsoap
                                    + "("
                                    + s.parameter.label()
                                    + "=...): Groovecast's "
                                    + m.engine
                                    + "() has no such parameter; left out");
                }
                continue;
            }
            if (s.id) {
                if (v != null) named.put("id", Values.base(v));
                continue;
            }
            Function<Object, Object> argument = m.arguments.get(key);
            if (argument != null) v = argument.apply(v);
            Function<Fn, Fn> adapter = m.functions.get(key);
            Object converted;
            if (Values.base(v) instanceof Fn f && s.engine.type() == ValueType.FUNCTION) {
                converted =
                        values.closure(adapter == null ? f : adapter.apply(f), m.functionResult);
            } else {
                converted = values.toEngine(v, s.engine.type());
            }
            if (s.parameter.isPositional()) {
                positional[s.enginePosition] = converted;
                given[s.enginePosition] = true;
            } else {
                named.put(s.engine.name(), converted);
            }
        }
        int count = 0;
        while (count < positional.length && given[count]) count++;
        Object[] args = new Object[1 + count];
        args[0] = named;
        System.arraycopy(positional, 0, args, 1, count);
        Object answer;
        try {
            answer = caller.call(m.engine, args, a.at());
        } catch (HttpFailure f) {
            if (m.httpFailure != null) return m.httpFailure.apply(f);
            throw Errors.at(a.at(), "http", f.getMessage());
        }
        return m.result.apply(EngineValues.toLiquidsoapResult(answer));
    }

    /**
     * A parameter's type in Liquidsoap's syntax, by its declaration: a function of the arity {@link
     * OperatorSpec#calls} declares (any function where the operator adapts to it), fresh variables
     * ({@code var} counts them) where the declaration says no more.
     */
    static String parameterType(OperatorSpec spec, Param p, int[] var) {
        if (p.type() == ValueType.FUNCTION) {
            List<String> calls = spec.calls(p.name()).orElse(null);
            if (calls == null) return "'p" + var[0]++;
            List<String> args = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) args.add("'p" + var[0]++);
            return "(" + String.join(", ", args) + ") -> 'p" + var[0]++;
        }
        return typeOf(p.type(), "p" + var[0]++);
    }

    /**
     * What an operator answers, as Liquidsoap types it: a source with the methods every source has
     * ({@link SourceFields#METHODS_TYPE}) and those the operator declares ({@code q.push}), named
     * by the naming rule and typed by the {@link Mapping} (any type where it says nothing).
     */
    static String resultType(OperatorSpec spec, Mapping m) {
        if (m.returns != null) return m.returns;
        List<String> methods = new ArrayList<>();
        int var = 0;
        for (String name : spec.methods().keySet()) {
            String liq = OperatorNames.toLiquidsoap(name);
            methods.add(liq + " : " + m.methods.getOrDefault(liq, "'m" + var++));
        }
        return switch (spec.returns()) {
            case SOURCE -> {
                methods.addFirst(SourceFields.METHODS_TYPE);
                yield "source('a).{" + String.join(", ", methods) + "}";
            }
            case OUTPUT -> {
                // Liquidsoap's outputs are unit with the source's methods: one is a statement,
                // the last of a function list.iter calls, the branch of an if without else
                methods.addFirst(SourceFields.METHODS_TYPE);
                yield "unit.{" + String.join(", ", methods) + "}";
            }
            default ->
                    methods.isEmpty()
                            ? typeOf(spec.returns(), "r")
                            : "'r.{" + String.join(", ", methods) + "}";
        };
    }

    /** A value's type in Liquidsoap's syntax; {@code var} names a fresh variable. */
    static String typeOf(ValueType t, String var) {
        return switch (t) {
            case SOURCE, OUTPUT -> "source('a)";
            case SOURCES -> "[source('a)]";
            case ENCODER -> "format('a)";
            case CLOCK -> "clock";
            case NUMBER -> "float";
            case INTEGER -> "int";
            case STRING -> "string";
            case BOOLEAN -> "bool";
            case LIST -> "['" + var + "]";
            case MAP -> "[(string * '" + var + ")]";
            case CONDITION -> "() -> bool";
            case FUNCTION, ANY -> "'" + var;
            case NONE -> "unit";
        };
    }
}
