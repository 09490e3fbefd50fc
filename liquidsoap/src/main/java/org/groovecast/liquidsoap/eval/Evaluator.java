package org.groovecast.liquidsoap.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.syntax.Arg;
import org.groovecast.liquidsoap.syntax.ArgsOf;
import org.groovecast.liquidsoap.syntax.EncoderParam;
import org.groovecast.liquidsoap.syntax.EvalCheck;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.ListElement;
import org.groovecast.liquidsoap.syntax.Param;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.RecordEntry;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.Statement;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * Evaluates a Liquidsoap syntax tree by walking it. Values are plain Java objects (see the package
 * comment); scopes are {@link Env} chains, so closures are cheap and safe to call from any thread
 * (the engine calls a script's callbacks from its clocks and pools). Every error is a {@link
 * LiqError} located at the construct that failed.
 */
public final class Evaluator {
    /** The Liquidsoap version whose language this is: {@code %ifversion} compares with it. */
    public static final String VERSION = "2.4.5";

    private final Hooks hooks;
    private final Definitions definitions;
    private final Map<Span, TypeAnnotation> jsonTypes;
    private final EvalCheck evalCheck;

    public Evaluator(Hooks hooks) {
        this(hooks, Map.of());
    }

    /**
     * With the types the type checker inferred for the untyped {@code let json.parse x = s} of the
     * script, by the span of their {@code let} ({@link
     * org.groovecast.liquidsoap.prelude.TypeCheck.Result#jsonTypes}): the JSON is read as that
     * type, as Liquidsoap reads it.
     */
    public Evaluator(Hooks hooks, Map<Span, TypeAnnotation> jsonTypes) {
        this(hooks, jsonTypes, EvalCheck.NONE);
    }

    /** With the check of what {@code let eval} evaluates (the script's type check gives it). */
    public Evaluator(Hooks hooks, Map<Span, TypeAnnotation> jsonTypes, EvalCheck evalCheck) {
        this.hooks = hooks;
        this.definitions = new Definitions(this);
        this.jsonTypes = Map.copyOf(jsonTypes);
        this.evalCheck = evalCheck;
    }

    EvalCheck evalCheck() {
        return evalCheck;
    }

    /** The type an untyped {@code let json.parse} at {@code at} was inferred to have, or null. */
    TypeAnnotation jsonType(Span at) {
        return jsonTypes.get(at);
    }

    public Hooks hooks() {
        return hooks;
    }

    /** Runs a program in {@code env}; answers its value and the scope it leaves. */
    public Result run(Expr.Sequence program, Env env) {
        Object[] last = {Tuple.UNIT};
        Env after = items(program.items(), env, last);
        return new Result(last[0], after);
    }

    /** A program's value and the scope after its last definition. */
    public record Result(Object value, Env env) {}

    // ---- sequences and definitions

    Object sequence(Expr.Sequence s, Env env) {
        List<Statement> items = s.items();
        if (items.size() == 1 && items.getFirst() instanceof Expr e && !isBranch(e)) {
            return eval(e, env);
        }
        Object[] last = {Tuple.UNIT};
        items(items, env, last);
        return last[0];
    }

    private static boolean isBranch(Expr e) {
        return e instanceof Expr.IfDef
                || e instanceof Expr.IfEncoder
                || e instanceof Expr.IfVersion;
    }

    /**
     * Runs statements in order, each definition scoping over the rest; {@code last[0]} the value.
     */
    private Env items(List<Statement> items, Env env, Object[] last) {
        for (Statement item : items) {
            switch (item) {
                case Statement.Let let -> {
                    env = definitions.define(let, env);
                    last[0] = Tuple.UNIT;
                }
                case Statement.Open open -> {
                    Object module = eval(open.module(), env);
                    for (Map.Entry<String, Object> f : fieldsOf(module).entrySet()) {
                        env = env.bind(f.getKey(), f.getValue());
                    }
                    last[0] = Tuple.UNIT;
                }
                case Expr.IfDef d -> {
                    Expr.Sequence branch = defined(d, env) ? d.then() : d.otherwise();
                    last[0] = Tuple.UNIT;
                    if (branch != null) env = items(branch.items(), env, last);
                }
                case Expr.IfEncoder d -> {
                    Expr.Sequence branch = encoder(d) ? d.then() : d.otherwise();
                    last[0] = Tuple.UNIT;
                    if (branch != null) env = items(branch.items(), env, last);
                }
                case Expr.IfVersion d -> {
                    Expr.Sequence branch = version(d) ? d.then() : d.otherwise();
                    last[0] = Tuple.UNIT;
                    if (branch != null) env = items(branch.items(), env, last);
                }
                case Expr e -> last[0] = eval(e, env);
            }
        }
        return env;
    }

    /** {@code %ifdef a.b}: whether the name, or the path of fields, is in scope. */
    boolean defined(Expr.IfDef d, Env env) {
        String[] path = d.name().split("\\.");
        Object v = env.lookup(path[0]);
        for (int i = 1; i < path.length && v != Env.MISSING; i++) v = field(v, path[i]);
        return (v != Env.MISSING) != d.negative();
    }

    private boolean encoder(Expr.IfEncoder d) {
        String name = d.encoder().startsWith("%") ? d.encoder().substring(1) : d.encoder();
        return hooks.encoderAvailable(name) != d.negative();
    }

    static boolean version(Expr.IfVersion d) {
        int c = compareVersions(VERSION, d.version());
        return switch (d.operator()) {
            case ">=" -> c >= 0;
            case "<=" -> c <= 0;
            case "==" -> c == 0;
            case "<" -> c < 0;
            case ">" -> c > 0;
            default -> false;
        };
    }

    static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? parseOr0(x[i]) : 0;
            int q = i < y.length ? parseOr0(y[i]) : 0;
            if (p != q) return Integer.compare(p, q);
        }
        return 0;
    }

    private static int parseOr0(String s) {
        try {
            return Integer.parseInt(s.replaceAll("[^0-9].*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    // ---- expressions

    public Object eval(Expr e, Env env) {
        return switch (e) {
            case Expr.IntLit i -> Literals.integer(i);
            case Expr.FloatLit f -> Literals.floating(f);
            case Expr.BoolLit b -> b.value();
            case Expr.StringLit s -> s.text();
            case Expr.RawStringLit s -> s.text();
            case Expr.InterpolatedString s -> interpolate(s, env);
            case Expr.RegexpLit r -> regexp(r);
            case Expr.NullLit n -> null;
            case Expr.TimeLit t -> TimePredicate.during(t.span(), t.time()).holds(hooks.now());
            case Expr.IntervalLit t ->
                    TimePredicate.between(t.span(), t.from(), t.to()).holds(hooks.now());
            case Expr.Var v -> variable(v, env);
            case Expr.TupleLit t -> tuple(t, env);
            case Expr.ListLit l -> list(l, env);
            case Expr.RecordLit r -> record(r, env);
            case Expr.Invoke i -> unshort(invoke(i, env));
            case Expr.MethodCall m -> unshort(methodCall(m, env));
            case Expr.Call c -> call(c, env);
            case Expr.Assoc a -> assoc(a, env);
            case Expr.Not n -> !Values.truth(eval(n.operand(), env), n.operand().span());
            case Expr.Negative n -> Operators.negate(eval(n.operand(), env), n.span());
            case Expr.Get g -> apply(eval(g.reference(), env), Call.of(g.span()), g.span());
            case Expr.Set s -> set(s, env);
            case Expr.Infix i -> infix(i, env);
            case Expr.BoolOp b -> boolOp(b, env);
            case Expr.Coalesce c -> coalesce(c, env);
            case Expr.Cons c -> cons(c, env);
            case Expr.At a ->
                    apply(
                            eval(a.function(), env),
                            Call.of(a.span(), eval(a.argument(), env)),
                            a.span());
            case Expr.If i -> ifThen(i, env);
            case Expr.InlineIf i ->
                    Values.truth(eval(i.condition(), env), i.condition().span())
                            ? eval(i.then(), env)
                            : eval(i.otherwise(), env);
            case Expr.While w -> loop(w, env);
            case Expr.For f -> forLoop(f, env);
            case Expr.ForEach f -> forEach(f, env);
            case Expr.Try t -> tryCatch(t, env);
            case Expr.Block b -> sequence(b.body(), env);
            case Expr.Parens p -> eval(p.inner(), env);
            case Expr.Cast c -> eval(c.value(), env);
            case Expr.Fun f -> closure(null, f.params(), f.body(), env, f.span(), false);
            case Expr.Getter g -> closure(null, List.of(), g.body(), env, g.span(), true);
            case Expr.Encoder enc -> format(enc, env);
            case Expr.Sequence s -> sequence(s, env);
            case Expr.Include i ->
                    throw Errors.at(i.span(), "invalid", "%include was not read: " + i.name());
            case Expr.IfDef d -> branch(defined(d, env) ? d.then() : d.otherwise(), env);
            case Expr.IfEncoder d -> branch(encoder(d) ? d.then() : d.otherwise(), env);
            case Expr.IfVersion d -> branch(version(d) ? d.then() : d.otherwise(), env);
        };
    }

    private Object branch(Expr.Sequence s, Env env) {
        return s == null ? Tuple.UNIT : sequence(s, env);
    }

    private Object variable(Expr.Var v, Env env) {
        Object value = env.lookup(v.name());
        if (value == Env.MISSING) {
            if (v.name().equals("_null")) return null;
            throw Errors.at(
                    v.span(),
                    "invalid",
                    "unknown variable " + v.name() + Names.didYouMean(v.name(), env.names()));
        }
        return value;
    }

    private String interpolate(Expr.InterpolatedString s, Env env) {
        StringBuilder out = new StringBuilder();
        for (Expr part : s.parts()) {
            if (part instanceof Expr.StringLit lit) out.append(lit.text());
            else out.append(Show.text(eval(part, env)));
        }
        return out.toString();
    }

    private static Object regexp(Expr.RegexpLit r) {
        try {
            return new Regexp(r.raw().replace("\\/", "/"), r.flags());
        } catch (LiqError e) {
            throw e.locate(r.span());
        }
    }

    private Object tuple(Expr.TupleLit t, Env env) {
        if (t.elements().isEmpty()) return Tuple.UNIT;
        Object[] items = new Object[t.elements().size()];
        for (int i = 0; i < items.length; i++) items[i] = eval(t.elements().get(i), env);
        return Tuple.of(items);
    }

    private Object list(Expr.ListLit l, Env env) {
        List<Object> out = new ArrayList<>(l.elements().size());
        for (ListElement el : l.elements()) {
            switch (el) {
                case ListElement.Item item -> out.add(eval(item.value(), env));
                case ListElement.Spread spread -> {
                    Object v = Values.base(eval(spread.value(), env));
                    if (!(v instanceof List<?> inner)) {
                        throw Errors.at(
                                spread.span(), "invalid", "...spread of " + Values.describe(v));
                    }
                    out.addAll(inner);
                }
            }
        }
        return Collections.unmodifiableList(out);
    }

    private Object record(Expr.RecordLit r, Env env) {
        Object base = r.base() == null ? Tuple.UNIT : eval(r.base(), env);
        Map<String, Object> fields = new LinkedHashMap<>();
        for (RecordEntry entry : r.entries()) {
            switch (entry) {
                case RecordEntry.Field f -> fields.put(f.name(), eval(f.value(), env));
                case RecordEntry.Spread s -> {
                    Object v = eval(s.value(), env);
                    fields.putAll(fieldsOf(v));
                }
            }
        }
        return Rec.with(base, fields);
    }

    /** Every field of {@code v}: its own ones and those the value answers. */
    public Map<String, Object> fieldsOf(Object v) {
        Map<String, Object> all = new LinkedHashMap<>();
        Object b = Values.base(v);
        if (b instanceof HasFields h) {
            for (String n : h.fieldNames()) all.put(n, h.field(n));
        } else if (b != null) {
            for (String n : hooks.fieldNames(b)) all.put(n, hooks.field(b, n));
        }
        all.putAll(Values.fields(v));
        return all;
    }

    /** The field {@code name} of {@code v}, or {@link Env#MISSING}. */
    public Object field(Object v, String name) {
        if (v instanceof Rec r) {
            Object f = r.fields().get(name);
            if (f != null || r.fields().containsKey(name)) return f;
            v = r.base();
        }
        if (v instanceof HasFields h) return h.field(name);
        if (v instanceof ErrorValue e) return errorField(e, name);
        if (v == null) return Env.MISSING;
        return hooks.field(v, name);
    }

    private static Object errorField(ErrorValue e, String name) {
        return switch (name) {
            case "kind" -> e.kind();
            case "message" -> e.message();
            case "trace" -> e.trace();
            case "positions" -> e.trace();
            default -> Env.MISSING;
        };
    }

    /**
     * What {@code x?.a.b.c} answers once {@code x} is null: the rest of the chain is not looked at,
     * the whole is null (as in Liquidsoap).
     */
    private static final Object SHORT = new Object();

    private static Object unshort(Object v) {
        return v == SHORT ? null : v;
    }

    /** A chain's target: short-circuited chains stay short. */
    private Object target(Expr e, Env env) {
        if (e instanceof Expr.Invoke i) return invoke(i, env);
        if (e instanceof Expr.MethodCall m) return methodCall(m, env);
        return eval(e, env);
    }

    private Object invoke(Expr.Invoke i, Env env) {
        Object target = target(i.target(), env);
        if (target == SHORT) return SHORT;
        if (i.optional() && Values.base(target) == null && !(target instanceof Rec)) return SHORT;
        Object f = fieldOrFail(target, i.name(), i.optional(), i.span());
        return f == null && i.optional() ? SHORT : f;
    }

    Object fieldOrFail(Object target, String name, boolean optional, Span at) {
        if (optional && Values.base(target) == null && !(target instanceof Rec)) return null;
        Object f = field(target, name);
        if (f != Env.MISSING) return f;
        if (optional) return null;
        List<String> known = new ArrayList<>(fieldsOf(target).keySet());
        throw Errors.at(
                at,
                "invalid",
                Values.describe(target) + " has no field " + name + Names.didYouMean(name, known));
    }

    private Object methodCall(Expr.MethodCall m, Env env) {
        Object target = target(m.target(), env);
        if (target == SHORT) return SHORT;
        if (m.optional() && Values.base(target) == null && !(target instanceof Rec)) return SHORT;
        Object f = field(target, m.name());
        if (f == Env.MISSING) {
            if (m.optional()) return SHORT;
            fieldOrFail(target, m.name(), false, m.span());
        }
        if (m.optional() && Values.base(f) == null && !(f instanceof Rec)) return SHORT;
        return apply(f, arguments(m.args(), env, m.span()), m.span(), m.name());
    }

    private Object call(Expr.Call c, Env env) {
        Object f = eval(c.function(), env);
        String name = c.function() instanceof Expr.Var v ? v.name() : null;
        return apply(f, arguments(c.args(), env, c.span()), c.span(), name);
    }

    Call arguments(List<Arg> args, Env env, Span at) {
        List<String> labels = new ArrayList<>(args.size());
        List<Object> values = new ArrayList<>(args.size());
        for (Arg a : args) {
            switch (a) {
                case Arg.Positional p -> {
                    labels.add("");
                    values.add(eval(p.value(), env));
                }
                case Arg.Labelled l -> {
                    labels.add(l.label());
                    values.add(eval(l.value(), env));
                }
                case ArgsOf of -> {
                    for (Parameter p : argsOf(of, env)) {
                        labels.add(p.label());
                        values.add(env.lookup(p.label()));
                    }
                }
            }
        }
        return new Call(labels, values, at);
    }

    /** The labelled parameters {@code %argsof(f[...])} names. */
    List<Parameter> argsOf(ArgsOf of, Env env) {
        String[] path = of.source().split("\\.");
        Object f = env.lookup(path[0]);
        for (int i = 1; i < path.length && f != Env.MISSING; i++) f = field(f, path[i]);
        if (!(Values.base(f) instanceof Fn fn)) {
            throw Errors.at(of.span(), "invalid", "%argsof: " + of.source() + " is not a function");
        }
        List<Parameter> out = new ArrayList<>();
        for (Parameter p : fn.parameters()) {
            if (p.isPositional()) continue;
            if (!of.only().isEmpty() && !of.only().contains(p.label())) continue;
            if (of.except().contains(p.label())) continue;
            out.add(p);
        }
        return out;
    }

    Object apply(Object f, Call call, Span at) {
        return apply(f, call, at, null);
    }

    private Object apply(Object f, Call call, Span at, String name) {
        Object base = Values.base(f);
        if (!(base instanceof Fn fn)) {
            throw Errors.at(
                    at,
                    "invalid",
                    (name == null ? "" : name + " is ")
                            + Values.describe(f)
                            + ", not a function: it cannot be applied");
        }
        try {
            return fn.apply(call);
        } catch (LiqError e) {
            throw e.locate(at).through(at);
        } catch (Halt h) {
            throw h;
        } catch (RuntimeException e) {
            // Not the script's kind of error: still one located line, never a stack trace.
            String m = e.getMessage();
            throw Errors.at(
                    at, "failure", e.getClass().getSimpleName() + (m == null ? "" : ": " + m));
        } catch (StackOverflowError e) {
            throw Errors.at(
                    at, "eval", "stack overflow (a function that calls itself without end?)");
        }
    }

    private Object assoc(Expr.Assoc a, Env env) {
        Object target = Values.base(eval(a.target(), env));
        Object key = eval(a.key(), env);
        if (!(target instanceof List<?> l)) {
            throw Errors.at(
                    a.span(),
                    "invalid",
                    "l[k] needs a list of pairs, got " + Values.describe(target));
        }
        for (Object item : l) {
            if (Values.base(item) instanceof Tuple t
                    && t.size() == 2
                    && Values.equal(t.get(0), key)) {
                return t.get(1);
            }
        }
        return "";
    }

    private Object set(Expr.Set s, Env env) {
        Object target = eval(s.reference(), env);
        Object value = eval(s.value(), env);
        Object setter = field(target, "set");
        if (setter == Env.MISSING) {
            throw Errors.at(
                    s.span(),
                    "invalid",
                    Values.describe(target) + " is not a reference: it cannot be set");
        }
        apply(setter, Call.of(s.span(), value), s.span());
        return Tuple.UNIT;
    }

    private Object infix(Expr.Infix i, Env env) {
        Object a = eval(i.left(), env);
        Object b = eval(i.right(), env);
        return Operators.infix(i.operator(), a, b, i.span());
    }

    private Object boolOp(Expr.BoolOp b, Env env) {
        boolean and = b.operator().equals("and");
        for (Expr operand : b.operands()) {
            boolean v = Values.truth(eval(operand, env), operand.span());
            if (and && !v) return false;
            if (!and && v) return true;
        }
        return and;
    }

    private Object coalesce(Expr.Coalesce c, Env env) {
        Object v = lenient(c.value(), env);
        return Values.base(v) == null && !(v instanceof Rec) ? eval(c.fallback(), env) : v;
    }

    /** {@code x.a.b ?? d}: a field missing on the way is null, as Liquidsoap's optional fields. */
    private Object lenient(Expr e, Env env) {
        if (e instanceof Expr.Invoke i) {
            Object target = lenient(i.target(), env);
            if (Values.base(target) == null && !(target instanceof Rec)) return null;
            Object f = field(target, i.name());
            return f == Env.MISSING ? null : f;
        }
        return eval(e, env);
    }

    private Object cons(Expr.Cons c, Env env) {
        Object head = eval(c.head(), env);
        Object tail = Values.base(eval(c.tail(), env));
        if (!(tail instanceof List<?> l)) {
            throw Errors.at(c.span(), "invalid", ":: needs a list, got " + Values.describe(tail));
        }
        List<Object> out = new ArrayList<>(l.size() + 1);
        out.add(head);
        out.addAll(l);
        return Collections.unmodifiableList(out);
    }

    private Object ifThen(Expr.If i, Env env) {
        if (Values.truth(sequence(i.condition(), env), i.condition().span())) {
            return sequence(i.then(), env);
        }
        for (Expr.ElseIf elsif : i.elsifs()) {
            if (Values.truth(sequence(elsif.condition(), env), elsif.condition().span())) {
                return sequence(elsif.then(), env);
            }
        }
        return i.otherwise() == null ? Tuple.UNIT : sequence(i.otherwise(), env);
    }

    private Object loop(Expr.While w, Env env) {
        while (Values.truth(eval(w.condition(), env), w.condition().span())) {
            sequence(w.body(), env);
        }
        return Tuple.UNIT;
    }

    private Object forLoop(Expr.For f, Env env) {
        long from = Operators.integer(eval(f.from(), env), f.from().span());
        long to = Operators.integer(eval(f.to(), env), f.to().span());
        for (long i = from; i <= to; i++) sequence(f.body(), env.bind(f.variable(), i));
        return Tuple.UNIT;
    }

    private Object forEach(Expr.ForEach f, Env env) {
        Object iterator = eval(f.iterator(), env);
        Object base = Values.base(iterator);
        if (base instanceof List<?> l) {
            for (Object x : l) sequence(f.body(), env.bind(f.variable(), x));
            return Tuple.UNIT;
        }
        while (true) {
            Object next = apply(iterator, Call.of(f.iterator().span()), f.iterator().span());
            if (Values.base(next) == null && !(next instanceof Rec)) return Tuple.UNIT;
            sequence(f.body(), env.bind(f.variable(), next));
        }
    }

    private Object tryCatch(Expr.Try t, Env env) {
        try {
            return sequence(t.body(), env);
        } catch (LiqError e) {
            // The try is a call of error.catch in Liquidsoap: its place is in the error's trace
            e.through(t.span());
            if (!catches(t, e, env)) throw e;
            if (t.handler() == null) return Tuple.UNIT;
            Env handler = t.variable().equals("_") ? env : env.bind(t.variable(), e.value());
            return sequence(t.handler(), handler);
        } finally {
            if (t.ensure() != null) sequence(t.ensure(), env);
        }
    }

    private boolean catches(Expr.Try t, LiqError e, Env env) {
        if (t.errors() == null) return true;
        Object kinds = Values.base(eval(t.errors(), env));
        if (!(kinds instanceof List<?> l)) return true;
        for (Object k : l) {
            Object kind = Values.base(k);
            String name = kind instanceof ErrorValue ev ? ev.kind() : String.valueOf(kind);
            if (name.equals(e.kind())) return true;
        }
        return false;
    }

    private Object format(Expr.Encoder enc, Env env) {
        List<Format.Param> params = new ArrayList<>();
        for (EncoderParam p : enc.params()) {
            switch (p) {
                case EncoderParam.Labelled l ->
                        params.add(new Format.Param(l.label(), eval(l.value(), env)));
                case EncoderParam.Flag f -> params.add(new Format.Param(f.name(), null));
                case EncoderParam.Nested n ->
                        params.add(new Format.Param(null, format(n.encoder(), env)));
            }
        }
        String name = enc.name().startsWith("%") ? enc.name().substring(1) : enc.name();
        return new Format(name, List.copyOf(params));
    }

    // ---- functions

    /**
     * A closure of {@code params} over {@code env}; defaults are evaluated now, as Liquidsoap does.
     */
    Closure closure(String name, List<Param> params, Expr body, Env env, Span at, boolean getter) {
        List<Parameter> parameters = new ArrayList<>(params.size());
        List<Pattern> patterns = new ArrayList<>(params.size());
        for (Param p : params) {
            switch (p) {
                case Param.Positional pos -> {
                    Object dflt = pos.fallback() == null ? null : eval(pos.fallback(), env);
                    parameters.add(new Parameter("", pos.fallback() != null, dflt));
                    patterns.add(pos.pattern());
                }
                case Param.Labelled lab -> {
                    Object dflt = lab.fallback() == null ? null : eval(lab.fallback(), env);
                    parameters.add(new Parameter(lab.label(), lab.fallback() != null, dflt));
                    patterns.add(
                            lab.as() != null
                                    ? lab.as()
                                    : new Pattern.Var(lab.span(), List.of(lab.label())));
                }
                case ArgsOf of -> {
                    for (Parameter inherited : argsOf(of, env)) {
                        parameters.add(inherited);
                        patterns.add(new Pattern.Var(of.span(), List.of(inherited.label())));
                    }
                }
            }
        }
        return new Closure(this, name, parameters, patterns, body, env, at, getter);
    }

    Env bind(Pattern p, Object v, Env env, Span at) {
        return Patterns.bind(this, p, v, env, at);
    }
}
