package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.groovecast.liquidsoap.syntax.Arg;
import org.groovecast.liquidsoap.syntax.ArgsOf;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Param;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * Functions and their applications. A function's type lists its parameters: positional ones ({@code
 * x}), labelled ones ({@code ~x}), either optional when it has a default. An application passes
 * arguments by label in any order, positional ones in order; the optional ones may be left out, the
 * others may not (Liquidsoap has no partial application).
 */
final class Applications {
    private final Context cx;

    Applications(Context cx) {
        this.cx = cx;
    }

    /** An argument as passed: its label ("" when positional), type and place. */
    record Passed(String label, Type type, Span span) {}

    /** {@code f(args)}. */
    Type call(Expr.Call c) {
        Type f = cx.infer(c.function());
        return apply(c.span(), c.function(), f, c.args());
    }

    /** Applies a function, of type {@code f} (written {@code fn}, or null), to {@code args}. */
    Type apply(Span at, Expr fn, Type f, List<Arg> args) {
        List<Passed> passed = new ArrayList<>();
        for (Arg a : args) {
            switch (a) {
                case Arg.Positional p ->
                        passed.add(new Passed("", cx.infer(p.value()), p.value().span()));
                case Arg.Labelled l ->
                        passed.add(new Passed(l.label(), cx.infer(l.value()), l.value().span()));
                case ArgsOf o -> {
                    for (ResolvedParam p : argsOf(o)) {
                        Type v = cx.inference.variable(o.span(), p.label());
                        passed.add(new Passed(p.label(), v, o.span()));
                    }
                }
            }
        }
        return applyPassed(at, fn == null ? at : fn.span(), f, passed);
    }

    /** Applies {@code f} to positional arguments of known types (what constructs pass). */
    Type applyTypes(Span at, Type f, List<Type> args, Span argsAt) {
        List<Passed> passed = new ArrayList<>();
        for (Type t : args) passed.add(new Passed("", t, argsAt));
        return applyPassed(at, at, f, passed);
    }

    private Type applyPassed(Span at, Span fnAt, Type f, List<Passed> passed) {
        Type d = Type.demeth(f);
        if (d instanceof Type.Arrow arrow) {
            List<Type.Arg> left = new ArrayList<>(arrow.args());
            Set<String> already = new HashSet<>();
            for (Passed p : passed) {
                int found = -1;
                for (int i = 0; i < left.size(); i++) {
                    if (left.get(i).label().equals(p.label())) {
                        found = i;
                        break;
                    }
                }
                if (found < 0) throw noLabel(fnAt, p, !already.contains(p.label()), left);
                Type.Arg param = left.remove(found);
                cx.subtype(p.span(), p.type(), param.type());
                already.add(p.label());
            }
            List<String> missing = new ArrayList<>();
            for (Type.Arg a : left) {
                if (!a.optional()) {
                    missing.add(
                            (a.label().isEmpty() ? "" : a.label() + " : ")
                                    + TypePrinter.print(a.type()));
                }
            }
            if (!missing.isEmpty()) {
                throw new TypeError(
                        at,
                        "Missing arguments in function application: "
                                + String.join(", ", missing)
                                + ".");
            }
            return arrow.result();
        }
        // not known to be a function yet: it is one, of these arguments, all mandatory
        List<Type.Arg> args = new ArrayList<>();
        for (Passed p : passed) args.add(new Type.Arg(false, p.label(), p.type()));
        TypeVar result = new TypeVar(TypeVar.ANY_LEVEL);
        cx.subtype(fnAt, f, new Type.Arrow(args, result));
        return result;
    }

    private static TypeError noLabel(Span fnAt, Passed p, boolean first, List<Type.Arg> left) {
        String what =
                p.label().isEmpty()
                        ? "unlabeled argument"
                        : "argument labeled \"" + p.label() + "\"";
        String message =
                "Cannot apply that parameter because the function at "
                        + fnAt
                        + " has "
                        + (first ? "no " : "no more ")
                        + what
                        + "!";
        if (!p.label().isEmpty()) {
            List<String> labels = new ArrayList<>();
            for (Type.Arg a : left) if (!a.label().isEmpty()) labels.add(a.label());
            String near = Suggestions.nearest(p.label(), labels);
            if (near != null) message += " Did you mean \"" + near + "\"?";
        }
        return new TypeError(p.span(), message);
    }

    /** A parameter as the checker takes it, from the script or from {@code %argsof}. */
    record ResolvedParam(
            Span span,
            String label,
            String variable,
            Pattern pattern,
            Type annotation,
            Expr fallback,
            boolean optional) {}

    /**
     * {@code fun (params) -> body}, or a {@code def}'s function; {@code recursive} names it in its
     * own body ({@code def rec}). Parameters are typed at the current level, the body with them in
     * scope.
     */
    Type function(Span at, List<Param> params, Expr body, String recursive) {
        int mark = cx.scope.mark();
        try {
            TypeVar self = null;
            if (recursive != null) {
                self = new TypeVar(TypeVar.ANY_LEVEL);
                cx.scope.add(recursive, Type.Scheme.mono(self));
            }
            List<ResolvedParam> resolved = resolve(params);
            List<Type.Arg> args = new ArrayList<>();
            Set<String> labels = new HashSet<>();
            List<Runnable> patterns = new ArrayList<>();
            for (ResolvedParam p : resolved) {
                Type t = p.annotation() == null ? cx.fresh() : p.annotation();
                cx.subtyping.lowerLevels(cx.level, t);
                if (p.fallback() != null) {
                    Type fallback = cx.infer(p.fallback());
                    cx.subtype(p.fallback().span(), fallback, t);
                }
                if (!p.label().isEmpty() && !labels.add(p.label())) {
                    throw new TypeError(
                            at,
                            "Function has multiple arguments with the same label: " + p.label());
                }
                args.add(new Type.Arg(p.optional() || p.fallback() != null, p.label(), t));
                if (p.pattern() != null) {
                    Type paramType = t;
                    patterns.add(
                            () -> cx.definitions.bind(p.pattern(), paramType, List.of(), p.span()));
                } else {
                    cx.scope.add(p.variable(), Type.Scheme.mono(t));
                }
            }
            for (Runnable r : patterns) r.run();
            Type result = cx.infer(body);
            Type arrow = new Type.Arrow(args, result);
            if (self != null) cx.supertype(at, arrow, self);
            return arrow;
        } finally {
            cx.scope.reset(mark);
        }
    }

    /** The parameters as written, {@code %argsof(g)} replaced by g's labelled ones. */
    List<ResolvedParam> resolve(List<Param> params) {
        List<ResolvedParam> out = new ArrayList<>();
        for (Param p : params) {
            switch (p) {
                case Param.Positional pos -> {
                    Pattern.Var v = pos.pattern() instanceof Pattern.Var var ? var : null;
                    out.add(
                            new ResolvedParam(
                                    pos.span(),
                                    "",
                                    v == null ? null : v.name(),
                                    v == null ? pos.pattern() : null,
                                    pos.type() == null ? null : Annotations.of(pos.type()),
                                    pos.fallback(),
                                    false));
                }
                case Param.Labelled l -> {
                    Pattern.Var v =
                            l.as() == null ? null : l.as() instanceof Pattern.Var var ? var : null;
                    String variable = l.as() == null ? l.label() : v == null ? null : v.name();
                    out.add(
                            new ResolvedParam(
                                    l.span(),
                                    l.label(),
                                    variable,
                                    l.as() != null && v == null ? l.as() : null,
                                    l.type() == null ? null : Annotations.of(l.type()),
                                    l.fallback(),
                                    false));
                }
                case ArgsOf o -> out.addAll(argsOf(o));
            }
        }
        return out;
    }

    /** The labelled parameters of {@code o.source()}: a function of the script, or a builtin. */
    List<ResolvedParam> argsOf(ArgsOf o) {
        Scope.Binding defined = cx.scope.definedPath(o.source());
        List<ResolvedParam> all = new ArrayList<>();
        String owner;
        if (defined != null) {
            owner = o.source();
            if (defined.params() == null) {
                throw new TypeError(o.span(), o.source() + " is not a function!");
            }
            for (ResolvedParam p : defined.params()) {
                if (!p.label().isEmpty()) all.add(p);
            }
        } else {
            owner = "Builtin " + o.source();
            Type.Scheme s = cx.builtins.signature(o.source());
            if (s == null) {
                throw new TypeError(o.span(), "Builtin " + o.source() + " is not registered!");
            }
            if (!(Type.demeth(cx.instantiate(s)) instanceof Type.Arrow f)) {
                throw new TypeError(o.span(), "Builtin " + o.source() + " is not a function!");
            }
            for (Type.Arg a : f.args()) {
                if (a.label().isEmpty()) continue;
                all.add(
                        new ResolvedParam(
                                o.span(),
                                a.label(),
                                a.label(),
                                null,
                                a.type(),
                                null,
                                a.optional()));
            }
        }
        List<ResolvedParam> chosen = new ArrayList<>();
        if (!o.only().isEmpty()) {
            for (String name : o.only()) chosen.add(find(o, owner, all, name));
        } else {
            chosen.addAll(all);
        }
        for (String name : o.except()) {
            find(o, owner, all, name);
            chosen.removeIf(p -> p.label().equals(name));
        }
        return chosen;
    }

    private static ResolvedParam find(
            ArgsOf o, String owner, List<ResolvedParam> all, String name) {
        for (ResolvedParam p : all) if (p.label().equals(name)) return p;
        throw new TypeError(o.span(), owner + " does not have an argument named " + name);
    }
}
