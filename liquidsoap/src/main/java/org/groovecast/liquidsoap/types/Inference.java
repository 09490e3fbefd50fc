package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.syntax.Arg;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.ListElement;
import org.groovecast.liquidsoap.syntax.RecordEntry;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.Statement;

/**
 * The type of each expression (Liquidsoap's typechecking.ml). Liquidsoap first rewrites most
 * constructs into applications of builtins ({@code if} into {@code if(c, then=fun () -> a, else=fun
 * () -> b)}, {@code a + b} into {@code +(a, b)}, {@code "#{x}"} into {@code string.concat}...);
 * this checker types each construct as its rewriting would be typed, so the same scripts pass and
 * fail, with the same messages at the same places.
 */
final class Inference {
    private final Context cx;

    Inference(Context cx) {
        this.cx = cx;
    }

    Type infer(Expr e) {
        cx.current = e.span();
        return switch (e) {
            case Expr.IntLit i -> Type.INT;
            case Expr.FloatLit f -> Type.FLOAT;
            case Expr.BoolLit b -> Type.BOOL;
            case Expr.StringLit s -> Type.STRING;
            case Expr.RawStringLit s -> Type.STRING;
            case Expr.InterpolatedString s -> {
                for (Expr part : s.parts()) if (!(part instanceof Expr.StringLit)) infer(part);
                yield Type.STRING;
            }
            case Expr.RegexpLit r -> applied(e, builtinResult(r.span(), "regexp"));
            case Expr.NullLit n -> new Type.Nullable(cx.fresh());
            case Expr.TimeLit t -> applied(e, Type.BOOL);
            case Expr.IntervalLit t -> applied(e, Type.BOOL);
            case Expr.Var v -> variable(v.span(), v.name());
            case Expr.TupleLit t -> {
                if (t.elements().isEmpty()) yield Type.UNIT;
                List<Type> elements = new ArrayList<>();
                for (Expr x : t.elements()) elements.add(infer(x));
                yield new Type.TupleType(elements);
            }
            case Expr.ListLit l -> list(l);
            case Expr.RecordLit r -> record(r);
            case Expr.Invoke i -> cx.invocations.invoke(i);
            case Expr.MethodCall m -> applied(e, cx.invocations.methodCall(m));
            case Expr.Call c -> applied(e, cx.applications.call(c));
            case Expr.Assoc a -> applied(e, operator(a.span(), "_[_]", a.target(), a.key()));
            case Expr.Not n -> applied(e, operator(n.span(), "not", n.operand()));
            case Expr.Negative n -> applied(e, operator(n.span(), "~-", n.operand()));
            case Expr.Get g ->
                    applied(
                            e,
                            cx.applications.apply(
                                    g.span(), g.reference(), infer(g.reference()), List.of()));
            case Expr.Set s -> applied(e, set(s));
            case Expr.Infix i -> applied(e, operator(i.span(), i.operator(), i.left(), i.right()));
            case Expr.BoolOp b -> applied(e, boolOp(b));
            case Expr.Coalesce c -> applied(e, cx.invocations.coalesce(c));
            case Expr.Cons c -> applied(e, operator(c.span(), "_::_", c.head(), c.tail()));
            case Expr.At a ->
                    applied(
                            e,
                            cx.applications.apply(
                                    a.span(),
                                    a.function(),
                                    infer(a.function()),
                                    List.of(new Arg.Positional(a.argument()))));
            case Expr.If i -> applied(e, ifChain(i.span(), conditions(i), 0, i.otherwise()));
            case Expr.InlineIf i ->
                    applied(e, ifThenElse(i.span(), i.condition(), i.then(), i.otherwise()));
            case Expr.While w -> applied(e, loop(w));
            case Expr.For f -> applied(e, forLoop(f));
            case Expr.ForEach f -> applied(e, forEach(f));
            case Expr.Try t -> applied(e, tryCatch(t));
            case Expr.Block b -> infer(b.body());
            case Expr.Parens p -> infer(p.inner());
            case Expr.Cast c -> {
                Type t = Annotations.of(c.type());
                Type v = infer(c.value());
                cx.subtype(c.value().span(), v, t);
                yield t;
            }
            case Expr.Fun f -> cx.applications.function(f.span(), f.params(), f.body(), null);
            case Expr.Getter g -> new Type.Arrow(List.of(), infer(g.body()));
            case Expr.Encoder enc -> {
                if (!cx.builtins.hasEncoder(enc.name())) throw Encoders.unsupported(enc);
                yield Encoders.typeOf(enc, this::infer);
            }
            case Expr.Sequence s -> sequence(s);
            case Expr.Include i -> Type.UNIT;
            case Expr.IfDef d -> branch(Conditions.taken(cx, d));
            case Expr.IfEncoder d -> branch(Conditions.taken(cx, d));
            case Expr.IfVersion d -> branch(Conditions.taken(cx, d));
        };
    }

    private Type applied(Expr e, Type result) {
        cx.applied.put(e, result);
        return result;
    }

    private Type branch(Expr.Sequence taken) {
        return taken == null ? Type.UNIT : infer(taken);
    }

    /** A variable's type: a fresh instance of its scheme. */
    Type variable(Span at, String name) {
        Scope.Binding b = cx.scope.get(name);
        if (b == null) throw undefined(at, name);
        return cx.instantiate(b.scheme());
    }

    TypeError undefined(Span at, String name) {
        List<String> candidates = new ArrayList<>();
        for (String n : cx.scope.scriptNames()) candidates.add(n);
        for (String n : cx.builtins.names()) candidates.add(n);
        String near = Suggestions.nearest(name, candidates);
        return new TypeError(
                at,
                "Undefined variable "
                        + name
                        + (near == null ? "" : " (did you mean " + near + "?)"));
    }

    /** The result of a builtin of the language's own, applied to what Liquidsoap passes it. */
    private Type builtinResult(Span at, String name) {
        Type t = Type.demeth(variable(at, name));
        return t instanceof Type.Arrow a ? a.result() : t;
    }

    /** {@code a + b} is {@code +(a, b)}: the operator's type from the builtins. */
    private Type operator(Span at, String name, Expr... operands) {
        List<Arg> args = new ArrayList<>();
        for (Expr o : operands) args.add(new Arg.Positional(o));
        Type op = variable(at, name);
        return cx.applications.apply(at, null, op, args);
    }

    static Expr element(ListElement el) {
        return switch (el) {
            case ListElement.Item i -> i.value();
            case ListElement.Spread s -> s.value();
        };
    }

    /** {@code [a, ...l, b]}: the elements' common type. */
    private Type list(Expr.ListLit l) {
        List<Type> items = new ArrayList<>();
        boolean spread = false;
        for (ListElement el : l.elements()) {
            items.add(infer(element(el)));
            spread |= el instanceof ListElement.Spread;
        }
        TypeVar t = cx.fresh();
        for (int i = 0; i < items.size(); i++) {
            ListElement el = l.elements().get(i);
            if (el instanceof ListElement.Spread) {
                cx.subtype(element(el).span(), items.get(i), new Type.ListType(t, false));
            } else {
                cx.subtype(element(el).span(), items.get(i), t);
            }
        }
        Type result = new Type.ListType(t, false);
        if (spread) cx.applied.put(l, result);
        return result;
    }

    /**
     * {@code base.{a = 1, ...r}}: each field a method, generalized on its own; a spread puts the
     * spread value's methods around what comes before it; a later field replaces an earlier one.
     */
    private Type record(Expr.RecordLit r) {
        Type t = r.base() == null ? Type.UNIT : infer(r.base());
        Map<String, Expr> fields = new LinkedHashMap<>();
        for (RecordEntry entry : r.entries()) {
            switch (entry) {
                case RecordEntry.Field f -> fields.put(f.name(), f.value());
                case RecordEntry.Spread s -> {
                    t = withFields(t, fields);
                    fields.clear();
                    t = Methods.remeth(infer(s.value()), t);
                }
            }
        }
        return withFields(t, fields);
    }

    private Type withFields(Type base, Map<String, Expr> fields) {
        Type t = base;
        for (var f : new java.util.TreeMap<>(fields).entrySet()) {
            Type v = infer(f.getValue());
            t = new Type.Meth(f.getKey(), false, Generalization.generalize(cx.level, v), null, t);
        }
        return t;
    }

    private Type set(Expr.Set s) {
        Type set = cx.invocations.field(s.reference(), infer(s.reference()), "set", false);
        Type r = cx.applications.apply(s.span(), null, set, List.of(new Arg.Positional(s.value())));
        cx.subtype(s.span(), r, Type.UNIT);
        return Type.UNIT;
    }

    /** {@code a and b and c}: {@code and(fun () -> and(fun () -> a, fun () -> b), fun () -> c)}. */
    private Type boolOp(Expr.BoolOp b) {
        Type acc = infer(b.operands().getFirst());
        for (int i = 1; i < b.operands().size(); i++) {
            Type next = infer(b.operands().get(i));
            Type op = Type.demeth(variable(b.span(), b.operator()));
            Type left = new Type.Arrow(List.of(), acc);
            Type right = new Type.Arrow(List.of(), next);
            acc = cx.applications.applyTypes(b.span(), op, List.of(left, right), b.span());
        }
        return acc;
    }

    private record Branch(Expr condition, Expr then) {}

    private static List<Branch> conditions(Expr.If i) {
        List<Branch> l = new ArrayList<>();
        l.add(new Branch(i.condition(), i.then()));
        for (Expr.ElseIf e : i.elsifs()) l.add(new Branch(e.condition(), e.then()));
        return l;
    }

    /** {@code if c then a elsif d then b else e end}: {@code if(c, a, if(d, b, e))}. */
    private Type ifChain(Span at, List<Branch> branches, int from, Expr otherwise) {
        Branch b = branches.get(from);
        Type c = infer(b.condition());
        Type then = infer(b.then());
        Type other;
        Span otherSpan;
        if (from + 1 < branches.size()) {
            other = ifChain(at, branches, from + 1, otherwise);
            otherSpan = at;
        } else if (otherwise != null) {
            other = infer(otherwise);
            otherSpan = lastSpan(otherwise);
        } else {
            other = Type.UNIT;
            otherSpan = at;
        }
        return ifTypes(c, b.condition().span(), then, lastSpan(b.then()), other, otherSpan);
    }

    private Type ifThenElse(Span at, Expr condition, Expr then, Expr otherwise) {
        Type c = infer(condition);
        Type a = infer(then);
        Type b = infer(otherwise);
        return ifTypes(c, condition.span(), a, then.span(), b, otherwise.span());
    }

    /** The builtin {@code if}: {@code (bool, then : () -> 'a, else : () -> 'a) -> 'a}. */
    private Type ifTypes(Type c, Span cAt, Type then, Span thenAt, Type other, Span otherAt) {
        cx.subtype(cAt, c, Type.BOOL);
        TypeVar result = cx.fresh();
        cx.subtype(thenAt, then, result);
        cx.subtype(otherAt, other, result);
        return result;
    }

    /** Where a branch's value is: the last expression of its sequence. */
    private static Span lastSpan(Expr e) {
        if (e instanceof Expr.Sequence s
                && !s.items().isEmpty()
                && s.items().getLast() instanceof Expr last) {
            return lastSpan(last);
        }
        return e.span();
    }

    /** {@code while c do b end}: {@code while({bool}, () -> unit)}. */
    private Type loop(Expr.While w) {
        Type c = infer(w.condition());
        Type body = infer(w.body());
        cx.subtype(w.span(), new Type.Arrow(List.of(), c), new Type.Getter(Type.BOOL));
        cx.subtype(w.span(), new Type.Arrow(List.of(), body), new Type.Arrow(List.of(), Type.UNIT));
        return Type.UNIT;
    }

    /** {@code for i = a to b do ... end}: {@code for(iterator.int(a, b), fun (i) -> ...)}. */
    private Type forLoop(Expr.For f) {
        cx.subtype(f.from().span(), infer(f.from()), Type.INT);
        cx.subtype(f.to().span(), infer(f.to()), Type.INT);
        return iterate(f.span(), f.variable(), Type.INT, f.body());
    }

    /** {@code for x = it do ... end}: {@code for(it, fun (x) -> ...)}, it of {@code () -> 'a?}. */
    private Type forEach(Expr.ForEach f) {
        Type it = infer(f.iterator());
        TypeVar element = cx.fresh();
        cx.subtype(f.iterator().span(), it, new Type.Arrow(List.of(), new Type.Nullable(element)));
        return iterate(f.span(), f.variable(), element, f.body());
    }

    private Type iterate(Span at, String variable, Type element, Expr body) {
        int mark = cx.scope.mark();
        TypeVar v = cx.fresh();
        cx.scope.add(variable, Type.Scheme.mono(v));
        Type b;
        try {
            b = infer(body);
        } finally {
            cx.scope.reset(mark);
        }
        cx.subtype(
                at,
                new Type.Arrow(List.of(new Type.Arg(false, "", v)), b),
                new Type.Arrow(List.of(new Type.Arg(false, "", element)), Type.UNIT));
        return Type.UNIT;
    }

    /**
     * {@code try b catch e : l do h finally f end}: {@code error.catch(errors=l, body=fun () -> b,
     * catch=fun (e) -> h, finally=fun () -> f)}, of the type of b and h.
     */
    private Type tryCatch(Expr.Try t) {
        if (t.errors() != null) {
            Type errors = infer(t.errors());
            cx.subtype(
                    t.errors().span(),
                    errors,
                    new Type.Nullable(new Type.ListType(new Type.Ground("error"), false)));
        }
        Type body = infer(t.body());
        Type handler;
        Span handlerAt = t.span();
        int mark = cx.scope.mark();
        try {
            TypeVar err = cx.fresh();
            cx.scope.add(t.variable(), Type.Scheme.mono(err));
            handler = t.handler() == null ? Type.UNIT : infer(t.handler());
            if (t.handler() != null) handlerAt = lastSpan(t.handler());
            cx.subtype(t.span(), CoreSignatures.error(), err);
        } finally {
            cx.scope.reset(mark);
        }
        if (t.ensure() != null) {
            cx.subtype(lastSpan(t.ensure()), infer(t.ensure()), Type.UNIT);
        }
        TypeVar result = cx.fresh();
        cx.subtype(lastSpan(t.body()), body, result);
        cx.subtype(handlerAt, handler, result);
        return result;
    }

    /**
     * The script: a sequence whose definitions stay in scope, for what is checked after it; answers
     * the type of its value (what its last item gives).
     */
    Type topLevel(Expr.Sequence program) {
        return items(program.items(), false);
    }

    /**
     * The script, going on after a top-level statement that fails (its error is kept; the names it
     * defines are then of any type, so that what follows does not fail because of it).
     */
    void topLevel(Expr.Sequence program, List<TypeError> errors) {
        for (Statement item : program.items()) {
            try {
                items(List.of(item), true);
            } catch (TypeError e) {
                errors.add(e);
                cx.level = 0;
                if (item instanceof Statement.Let l) {
                    cx.definitions.bindAnything(l);
                    if (l.pattern() instanceof org.groovecast.liquidsoap.syntax.Pattern.Var v) {
                        List<Applications.ResolvedParam> params = null;
                        try {
                            if (l.params() != null) params = cx.applications.resolve(l.params());
                        } catch (TypeError again) {
                            params = List.of();
                        }
                        cx.scope.definePath(v.name(), params);
                    }
                }
            }
        }
    }

    /** A sequence: its definitions scope over the rest of it; its value is the last item's. */
    Type sequence(Expr.Sequence s) {
        int mark = cx.scope.mark();
        try {
            return items(s.items(), false);
        } finally {
            cx.scope.reset(mark);
        }
    }

    /** The items of a sequence, in the current scope; {@code more}: others follow them. */
    private Type items(List<Statement> items, boolean more) {
        Type last = Type.UNIT;
        for (int i = 0; i < items.size(); i++) {
            Statement item = items.get(i);
            boolean followed = more || i < items.size() - 1;
            switch (item) {
                case Statement.Let l -> {
                    cx.definitions.let(l);
                    last = Type.UNIT;
                }
                case Statement.Open o -> {
                    cx.definitions.open(o);
                    last = Type.UNIT;
                }
                case Expr.IfDef d -> last = spliced(Conditions.taken(cx, d), followed);
                case Expr.IfEncoder d -> last = spliced(Conditions.taken(cx, d), followed);
                case Expr.IfVersion d -> last = spliced(Conditions.taken(cx, d), followed);
                case Expr e -> {
                    last = infer(e);
                    if (followed) ignored(e, last);
                }
            }
        }
        return last;
    }

    private Type spliced(Expr.Sequence taken, boolean followed) {
        return taken == null ? Type.UNIT : items(taken.items(), followed);
    }

    /** Liquidsoap's warnings for a value computed and dropped. */
    private void ignored(Expr e, Type t) {
        Type d = Type.demeth(t);
        if (d instanceof TypeVar || d.equals(Type.UNIT)) return;
        if (d instanceof Type.Arrow) {
            cx.warn(
                    e.span(),
                    "Trying to ignore a function, which is of type "
                            + Messages.cut(TypePrinter.print(t))
                            + ". Did you forget to apply it to arguments?");
        } else if (d instanceof Type.Constr c && c.name().equals("source")) {
            cx.warn(
                    e.span(),
                    "This source is unused, maybe it needs to be connected to an output.");
        } else {
            cx.warn(
                    e.span(),
                    "This expression is returning a value that is ignored. Do you need to use its"
                            + " return value? If not, you can use the `ignore()` operator.");
        }
    }
}
