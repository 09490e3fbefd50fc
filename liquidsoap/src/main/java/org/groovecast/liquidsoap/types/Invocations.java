package org.groovecast.liquidsoap.types;

import java.util.List;
import org.groovecast.liquidsoap.syntax.Expr;

/**
 * Fields: {@code x.foo}, {@code x.foo(args)}, {@code x.foo ?? d} and {@code x?.foo}. A field of a
 * value whose type is not known yet makes its type a record with that field (optional when the
 * access has a default). {@code x?.foo} is null when x has no field foo; in a chain ({@code
 * x?.foo.bar(1).baz}) every later access is made on what is there, and the chain's value is
 * nullable. {@code ??} on a field gives the field's default.
 */
final class Invocations {
    private final Context cx;

    Invocations(Context cx) {
        this.cx = cx;
    }

    /** A value reached by a chain of accesses: its type, and whether an optional one came first. */
    private record Reached(Type type, boolean maybeNull) {}

    Type invoke(Expr.Invoke i) {
        Reached r = reach(i);
        return r.maybeNull() ? Type.nullable(r.type()) : r.type();
    }

    Type methodCall(Expr.MethodCall m) {
        Reached r = reach(m);
        return r.maybeNull() ? Type.nullable(r.type()) : r.type();
    }

    private Reached reach(Expr e) {
        return switch (e) {
            case Expr.Invoke i -> {
                Reached target = target(i.target());
                Type f = field(i.target(), target.type(), i.name(), i.optional());
                if (i.optional() && Type.deref(f).equals(Type.NEVER)) {
                    // a hidden field read with ?.: what the access defaults to, null (typing.ml)
                    yield new Reached(new Type.Nullable(cx.fresh()), true);
                }
                yield new Reached(f, target.maybeNull() || i.optional());
            }
            case Expr.MethodCall m -> {
                Reached target = target(m.target());
                Type f = field(m.target(), target.type(), m.name(), m.optional());
                Type result = cx.applications.apply(m.span(), m, f, m.args());
                yield new Reached(result, target.maybeNull() || m.optional());
            }
            default -> new Reached(cx.infer(e), false);
        };
    }

    private Reached target(Expr target) {
        if (target instanceof Expr.Invoke || target instanceof Expr.MethodCall)
            return reach(target);
        return new Reached(cx.infer(target), false);
    }

    /**
     * The type of field {@code name} of a value of type {@code t} (written {@code target}); {@code
     * optional}: the access has a default, so the field may be absent.
     */
    Type field(Expr target, Type t, String name, boolean optional) {
        Type found = find(t, name);
        if (found != null) {
            // a hidden field (let v.{foo} = x hides foo in v) is never there
            if (!optional && found.equals(Type.NEVER)) throw noMethod(target, t, name);
            return found;
        }
        TypeVar x = cx.fresh();
        TypeVar rest = cx.fresh();
        cx.subtype(
                target.span(), t, new Type.Meth(name, optional, Type.Scheme.mono(x), null, rest));
        if (!optional && Type.deref(x).equals(Type.NEVER)) {
            throw noMethod(target, t, name);
        }
        return x;
    }

    /** A field the type surely has (present, or hidden: never), instantiated; else null. */
    private Type find(Type t, String name) {
        Type d = Type.deref(t);
        while (d instanceof Type.Meth m) {
            if (m.name().equals(name)) {
                Type mt = Type.deref(m.scheme().type());
                if (!m.optional() || mt.equals(Type.NEVER)) {
                    if (mt.equals(Type.NEVER)) return Type.NEVER;
                    return cx.instantiate(m.scheme());
                }
                return null;
            }
            d = Type.deref(m.base());
        }
        return null;
    }

    private static TypeError noMethod(Expr target, Type t, String name) {
        return new TypeError(
                target.span(),
                "This value has type "
                        + Messages.cut(TypePrinter.print(t))
                        + ", it cannot have method "
                        + name
                        + ".");
    }

    /**
     * {@code e ?? d}: on a field, the field with default d; on anything else, {@code
     * null.default(e, fun () -> d)}: e of {@code 'a?}, d of {@code 'a}.
     */
    Type coalesce(Expr.Coalesce c) {
        if (c.value() instanceof Expr.Invoke i) {
            Reached target = target(i.target());
            Type f = findOrAdd(i.target(), target.type(), i.name());
            Type fallback = cx.infer(c.fallback());
            if (Type.deref(f).equals(Type.NEVER)) return fallback;
            Type expected = Type.deref(fallback) instanceof Type.Nullable ? Type.nullable(f) : f;
            cx.subtype(c.fallback().span(), fallback, expected);
            Type de = Type.deref(expected);
            if (de instanceof Type.Nullable n && !(Type.deref(fallback) instanceof Type.Nullable)) {
                return n.of();
            }
            return expected;
        }
        Type value = cx.infer(c.value());
        Type fallback = cx.infer(c.fallback());
        TypeVar a = cx.fresh();
        cx.subtype(c.value().span(), value, new Type.Nullable(a));
        cx.subtype(
                c.fallback().span(),
                new Type.Arrow(List.of(), fallback),
                new Type.Arrow(List.of(), a));
        return a;
    }

    /** The field as an access with a default sees it: optional, never when hidden. */
    private Type findOrAdd(Expr target, Type t, String name) {
        Type found = find(t, name);
        if (found != null) return found;
        return field(target, t, name, true);
    }
}
