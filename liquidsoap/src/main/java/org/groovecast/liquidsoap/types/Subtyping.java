package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/**
 * The subtyping relation {@code a <: b} of Liquidsoap (its typing.ml), which is how types are
 * unified: a value of type a can be used where a b is expected. Free variables are linked as they
 * are found (an unknown on the right becomes a covariant link, which a later use may widen to a
 * supertype through {@link #sup}: {@code [1, null]} is an {@code [int?]}). A record may have more
 * fields than expected; a function may take fewer arguments, or more optional ones; a function of
 * no argument may stand for a getter. On failure a {@link Mismatch} says which parts differ.
 */
final class Subtyping {
    /** A supremum that does not exist. */
    private static final class Incompatible extends RuntimeException {
        Incompatible() {
            super(null, null, false, false);
        }
    }

    private static final Incompatible INCOMPATIBLE = new Incompatible();
    private static final Type.Variance COV = Type.Variance.COVARIANT;
    private static final Type.Variance INV = Type.Variance.INVARIANT;

    private long steps;

    /** Makes {@code b} satisfy {@code c}: a free variable takes the constraint on. */
    void satisfy(Type b, Constraint c) {
        Type d = Type.deref(b);
        if (d instanceof TypeVar v) {
            v.addConstraint(c);
        } else {
            c.check(d, this);
        }
    }

    private void step() {
        if (++steps > Limits.STEPS) throw new TooComplex();
    }

    /** Whether {@code a} occurs in {@code t}; lowers the levels in t to a's. */
    private boolean occurs(TypeVar a, Type t, int depth) {
        step();
        if (depth > Limits.DEPTH) throw new TooComplex();
        return switch (t) {
            case Type.Ground g -> false;
            case Type.TrackFormat f -> false;
            case Type.TrackKind k -> occurs(a, k.format(), depth + 1);
            case Type.Getter g -> occurs(a, g.of(), depth + 1);
            case Type.ListType l -> occurs(a, l.element(), depth + 1);
            case Type.Nullable n -> occurs(a, n.of(), depth + 1);
            case Type.TupleType tuple -> {
                for (Type e : tuple.elements()) if (occurs(a, e, depth + 1)) yield true;
                yield false;
            }
            case Type.Meth m ->
                    occurs(a, m.scheme().type(), depth + 1) || occurs(a, m.base(), depth + 1);
            case Type.Constr c -> {
                for (Type.Param p : c.params()) if (occurs(a, p.type(), depth + 1)) yield true;
                yield false;
            }
            case Type.Arrow f -> {
                for (Type.Arg arg : f.args()) if (occurs(a, arg.type(), depth + 1)) yield true;
                yield occurs(a, f.result(), depth + 1);
            }
            case TypeVar v -> {
                if (v.link() != null) yield occurs(a, v.link(), depth + 1);
                if (v == a) yield true;
                v.lowerLevel(a.level());
                yield false;
            }
        };
    }

    /** Lowers every variable of {@code t} to {@code level} (a function's parameters). */
    void lowerLevels(int level, Type t) {
        occurs(new TypeVar(level), t, 0);
    }

    /** Links the free variable a to b; false when a occurs in b or b breaks a's constraints. */
    private boolean bind(TypeVar a, Type b, Type.Variance variance) {
        b = Type.deref(b);
        if (occurs(a, b, 0)) return false;
        try {
            for (Constraint c : a.constraints()) satisfy(b, c);
        } catch (Constraint.Unsatisfied e) {
            return false;
        }
        a.link(variance, b);
        return true;
    }

    /** Makes the links leading to t fixed: t is now used where it must be exactly what it is. */
    private static void makeInvariant(Type t) {
        while (t instanceof TypeVar v && v.link() != null) {
            v.makeInvariant();
            t = v.link();
        }
    }

    /** {@code a <: b}, linking variables; a {@link Mismatch} explains a failure. */
    void sub(Type a, Type b) {
        sub(a, b, 0);
    }

    private void sub(Type a, Type b, int depth) {
        if (a == b) return;
        step();
        if (depth > Limits.DEPTH) throw new TooComplex();
        int d = depth + 1;
        if (b instanceof TypeVar bv && bv.link() != null) {
            if (bv.variance() == COV) {
                // a covariant link may be widened: an int met with a null becomes an int?
                Type was = bv.link();
                Type widened;
                try {
                    widened = sup(a, was, d);
                } catch (Incompatible e) {
                    widened = was;
                }
                sub(was, widened, d);
                if (widened != was) bv.link(COV, widened);
                sub(a, widened, d);
                return;
            }
            if (a instanceof TypeVar av && av.link() != null && av.variance() == COV) {
                av.makeInvariant();
            }
            sub(a, bv.link(), d);
            return;
        }
        if (a instanceof TypeVar av && av.link() != null) {
            if (av.variance() == COV) av.makeInvariant();
            sub(av.link(), b, d);
            return;
        }
        // neither is a link now
        switch (a) {
            case Type.Ground ga when b instanceof Type.Ground gb && ga.equals(gb) -> {
                return;
            }
            case Type.Constr c1 when b instanceof Type.Constr c2 && c1.name().equals(c2.name()) -> {
                constructors(c1, c2, d);
                return;
            }
            case Type.ListType l1 when b instanceof Type.ListType l2 -> {
                try {
                    sub(l1.element(), l2.element(), d);
                } catch (Mismatch m) {
                    throw new Mismatch(
                            new Repr.ListOf(m.left(), l1.jsonObject()),
                            new Repr.ListOf(m.right(), l2.jsonObject()));
                }
                return;
            }
            case Type.Nullable n1 when b instanceof Type.Nullable n2 -> {
                try {
                    sub(n1.of(), n2.of(), d);
                } catch (Mismatch m) {
                    throw new Mismatch(new Repr.Nullable(m.left()), new Repr.Nullable(m.right()));
                }
                return;
            }
            case Type.TupleType t1 when b instanceof Type.TupleType t2 -> {
                tuples(t1, t2, d);
                return;
            }
            case Type.Arrow f1 when b instanceof Type.Arrow f2 -> {
                functions(f1, f2, d);
                return;
            }
            case Type.TrackKind k1 when b instanceof Type.TrackKind k2 -> {
                if (!k1.kind().equals(k2.kind())) throw new Mismatch(Repr.of(a), Repr.of(b));
                try {
                    sub(k1.format(), k2.format(), d);
                } catch (Mismatch m) {
                    throw new Mismatch(Repr.of(a), Repr.of(b));
                }
                return;
            }
            case Type.TrackFormat f1 when b instanceof Type.TrackFormat f2 -> {
                if (!f1.kind().equals(f2.kind()) || !f1.params().merge(f2.params())) {
                    throw new Mismatch(Repr.of(a), Repr.of(b));
                }
                return;
            }
            case Type.Getter g1 when b instanceof Type.Getter g2 -> {
                try {
                    sub(g1.of(), g2.of(), d);
                } catch (Mismatch m) {
                    throw new Mismatch(new Repr.Getter(m.left()), new Repr.Getter(m.right()));
                }
                return;
            }
            case Type.Arrow f1 when f1.args().isEmpty() && b instanceof Type.Getter g2 -> {
                try {
                    sub(f1.result(), g2.of(), d);
                } catch (Mismatch m) {
                    throw new Mismatch(
                            new Repr.Arrow(List.of(), m.left()), new Repr.Getter(m.right()));
                }
                return;
            }
            default -> {}
        }
        boolean aFree = a instanceof TypeVar;
        boolean bFree = b instanceof TypeVar;
        if ((a.equals(Type.NEVER) && bFree) || (aFree && b.equals(Type.NEVER))) {
            throw new Mismatch(Repr.of(a), Repr.of(b));
        }
        if (aFree) {
            if (!bind((TypeVar) a, b, INV)) throw new Mismatch(Repr.of(a), Repr.of(b));
            return;
        }
        if (bFree) {
            if (!bind((TypeVar) b, a, COV)) throw new Mismatch(Repr.of(a), Repr.of(b));
            return;
        }
        if (b instanceof Type.Nullable n2) {
            try {
                sub(a, n2.of(), d);
            } catch (Mismatch m) {
                throw new Mismatch(m.left(), new Repr.Nullable(m.right()));
            }
            return;
        }
        if (a instanceof Type.Meth m1 && Methods.has(b, m1.name())) {
            sameMethod(a, b, m1.name(), d);
            return;
        }
        if (b instanceof Type.Meth m2 && Methods.has(a, m2.name())) {
            sameMethod(a, b, m2.name(), d);
            return;
        }
        if (b instanceof Type.Meth m2) {
            Type base = Type.demeth(a);
            if (base instanceof TypeVar) {
                // an unknown value gets the field it is asked for
                boolean optional = m2.optional();
                Type field = m2.scheme().type();
                if (Type.deref(field) instanceof Type.Nullable n) {
                    optional = true;
                    field = n.of();
                }
                sub(
                        base,
                        new Type.Meth(
                                m2.name(),
                                optional,
                                new Type.Scheme(m2.scheme().generalized(), field),
                                null,
                                new TypeVar(TypeVar.ANY_LEVEL)),
                        d);
                sub(a, b, d);
            } else if (m2.optional() || Type.deref(m2.scheme().type()).equals(Type.NEVER)) {
                sub(a, Methods.hide(m2.base(), m2.name()), d);
            } else {
                throw new Mismatch(
                        Repr.of(a),
                        new Repr.Meth(
                                m2.name(),
                                m2.optional(),
                                List.of(),
                                Repr.ELLIPSIS,
                                m2.jsonName(),
                                Repr.ELLIPSIS));
            }
            return;
        }
        if (a instanceof Type.Meth m1) {
            // a field the other does not ask for is forgotten
            sub(Methods.optional(m1.base(), m1.name()), b, d);
            return;
        }
        if (b instanceof Type.Getter g2) {
            try {
                sub(a, g2.of(), d);
            } catch (Mismatch m) {
                throw new Mismatch(m.left(), new Repr.Getter(m.right()));
            }
            return;
        }
        // the outermost constructors differ: that is all the message needs to show
        throw new Mismatch(Repr.of(a, topOnly()), Repr.of(b, topOnly()));
    }

    /** Shows a type's first constructor only, the parts under it as {@code _}. */
    private static Predicate<Type> topOnly() {
        boolean[] shown = {false};
        return t -> {
            if (t instanceof TypeVar v && v.link() != null) return false;
            boolean already = shown[0];
            shown[0] = true;
            return already;
        };
    }

    private void constructors(Type.Constr c1, Type.Constr c2, int d) {
        List<Repr> pre = new ArrayList<>();
        int n = Math.min(c1.params().size(), c2.params().size());
        for (int i = 0; i < n; i++) {
            Type.Param p1 = c1.params().get(i);
            Type.Param p2 = c2.params().get(i);
            Type.Variance v = p1.variance() == p2.variance() ? p1.variance() : INV;
            try {
                if (v == COV) {
                    sub(p1.type(), p2.type(), d);
                } else {
                    makeInvariant(p2.type());
                    sub(p1.type(), p2.type(), d);
                    makeInvariant(p2.type());
                }
            } catch (Mismatch m) {
                List<Repr> post = Collections.nCopies(c1.params().size() - i - 1, Repr.ELLIPSIS);
                List<Repr> left = new ArrayList<>(pre);
                left.add(m.left());
                left.addAll(post);
                List<Repr> right = new ArrayList<>(pre);
                right.add(m.right());
                right.addAll(post);
                throw new Mismatch(
                        new Repr.Constr(c1.name(), left), new Repr.Constr(c1.name(), right));
            }
            pre.add(Repr.ELLIPSIS);
        }
    }

    private void tuples(Type.TupleType t1, Type.TupleType t2, int d) {
        int n1 = t1.elements().size();
        int n2 = t2.elements().size();
        if (n1 != n2) {
            throw new Mismatch(
                    new Repr.Tuple(Collections.nCopies(n1, Repr.ELLIPSIS)),
                    new Repr.Tuple(Collections.nCopies(n2, Repr.ELLIPSIS)));
        }
        for (int i = 0; i < n1; i++) {
            try {
                sub(t1.elements().get(i), t2.elements().get(i), d);
            } catch (Mismatch m) {
                List<Repr> left = new ArrayList<>(Collections.nCopies(n1, Repr.ELLIPSIS));
                List<Repr> right = new ArrayList<>(left);
                left.set(i, m.left());
                right.set(i, m.right());
                throw new Mismatch(new Repr.Tuple(left), new Repr.Tuple(right));
            }
        }
    }

    /**
     * {@code (l12) -> t <: (l) -> u}: each parameter of the expected function must be one of the
     * actual one's (by label, in order, of a type the expected one's is a subtype of), and what is
     * left of the actual one's must be optional; then t <: u.
     */
    private void functions(Type.Arrow f1, Type.Arrow f2, int d) {
        Repr.Arg more = new Repr.Arg(false, "", Repr.RANGE_ELLIPSIS);
        List<Repr.Arg> done = new ArrayList<>();
        List<Type.Arg> left = new ArrayList<>(f1.args());
        for (Type.Arg expected : f2.args()) {
            int found = -1;
            for (int i = 0; i < left.size(); i++) {
                if (left.get(i).label().equals(expected.label())) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                List<Repr.Arg> actual = new ArrayList<>(done);
                for (Type.Arg arg : left) {
                    actual.add(new Repr.Arg(arg.optional(), arg.label(), Repr.ELLIPSIS));
                }
                List<Repr.Arg> wanted = new ArrayList<>(done);
                wanted.add(new Repr.Arg(expected.optional(), expected.label(), Repr.ELLIPSIS));
                wanted.add(more);
                throw new Mismatch(
                        new Repr.Arrow(actual, Repr.ELLIPSIS),
                        new Repr.Arrow(wanted, Repr.ELLIPSIS));
            }
            Type.Arg actual = left.remove(found);
            try {
                if (!actual.optional() && expected.optional()) {
                    throw new Mismatch(Repr.ELLIPSIS, Repr.ELLIPSIS);
                }
                sub(expected.type(), actual.type(), d);
            } catch (Mismatch m) {
                List<Repr.Arg> l = new ArrayList<>(done);
                l.add(new Repr.Arg(actual.optional(), expected.label(), m.right()));
                l.add(more);
                List<Repr.Arg> r = new ArrayList<>(done);
                r.add(new Repr.Arg(expected.optional(), expected.label(), m.left()));
                r.add(more);
                throw new Mismatch(
                        new Repr.Arrow(l, Repr.ELLIPSIS), new Repr.Arrow(r, Repr.ELLIPSIS));
            }
            done.add(new Repr.Arg(expected.optional(), expected.label(), Repr.ELLIPSIS));
        }
        boolean restOptional = true;
        for (Type.Arg arg : left) restOptional &= arg.optional();
        if (restOptional) {
            try {
                sub(f1.result(), f2.result(), d);
            } catch (Mismatch m) {
                throw new Mismatch(
                        new Repr.Arrow(List.of(more), m.left()),
                        new Repr.Arrow(List.of(more), m.right()));
            }
        } else {
            List<Repr.Arg> rest = new ArrayList<>();
            for (Type.Arg arg : left) {
                rest.add(new Repr.Arg(arg.optional(), arg.label(), Repr.of(arg.type())));
            }
            rest.add(more);
            throw new Mismatch(
                    new Repr.Arrow(rest, Repr.ELLIPSIS),
                    new Repr.Arrow(List.of(more), Repr.ELLIPSIS));
        }
    }

    /**
     * The field {@code name} of both: a's must be a subtype of b's ({@code {foo : int?}} may stand
     * for {@code {foo? : int}}, not the reverse), then the rest of both.
     */
    private void sameMethod(Type a, Type b, String name, int d) {
        Type.Meth m1 = Methods.find(a, name);
        Type.Meth m2 = Methods.find(b, name);
        Type.Scheme s1 = m1.scheme();
        Type t1 = Type.deref(s1.type());
        if (m1.optional() && m2.optional() && t1.equals(Type.NEVER)) {
            s1 = m2.scheme();
        } else if (m2.optional() && t1 instanceof Type.Nullable n) {
            s1 = new Type.Scheme(s1.generalized(), n.of());
        } else if (m1.optional() && !m2.optional()) {
            throw new Mismatch(Repr.of(a), Repr.of(b));
        }
        try {
            sub(Generalization.instantiate(-1, s1), Generalization.instantiate(-1, m2.scheme()), d);
        } catch (Mismatch m) {
            throw new Mismatch(
                    new Repr.Meth(
                            name, m1.optional(), List.of(), m.left(), m1.jsonName(), Repr.ELLIPSIS),
                    new Repr.Meth(
                            name,
                            m2.optional(),
                            List.of(),
                            m.right(),
                            m2.jsonName(),
                            Repr.ELLIPSIS));
        }
        try {
            sub(Methods.hide(a, name), Methods.hide(b, name), d);
        } catch (Mismatch m) {
            throw new Mismatch(
                    new Repr.Meth(
                            name, m1.optional(), List.of(), Repr.ELLIPSIS, m1.jsonName(), m.left()),
                    new Repr.Meth(
                            name,
                            m2.optional(),
                            List.of(),
                            Repr.ELLIPSIS,
                            m2.jsonName(),
                            m.right()));
        }
    }

    /**
     * An approximate least supertype of a and b, grown from b so that it has a chance to be above
     * a; it links nothing, so a subtyping must follow.
     */
    private Type sup(Type a, Type b, int depth) {
        step();
        if (depth > Limits.DEPTH) throw new TooComplex();
        int d = depth + 1;
        a = Type.deref(a);
        b = Type.deref(b);
        if (a == b) return a;
        if (a instanceof TypeVar) return b;
        if (b instanceof TypeVar) return a;
        if (a instanceof Type.Nullable n1) {
            return new Type.Nullable(sup(n1.of(), b instanceof Type.Nullable n2 ? n2.of() : b, d));
        }
        if (b instanceof Type.Nullable n2) return new Type.Nullable(sup(a, n2.of(), d));
        if (a instanceof Type.ListType l1 && b instanceof Type.ListType l2) {
            return new Type.ListType(sup(l1.element(), l2.element(), d), false);
        }
        if (a instanceof Type.Arrow f1 && b instanceof Type.Arrow f2) {
            if (f1.args().size() != f2.args().size()) throw INCOMPATIBLE;
            return new Type.Arrow(f2.args(), sup(f1.result(), f2.result(), d));
        }
        if (a instanceof Type.TupleType t1 && b instanceof Type.TupleType t2) {
            if (t1.elements().size() != t2.elements().size()) throw INCOMPATIBLE;
            List<Type> elements = new ArrayList<>();
            for (int i = 0; i < t1.elements().size(); i++) {
                elements.add(sup(t1.elements().get(i), t2.elements().get(i), d));
            }
            return new Type.TupleType(elements);
        }
        if (a instanceof Type.TrackKind k1 && b instanceof Type.TrackKind k2) {
            if (!k1.kind().equals(k2.kind())) throw INCOMPATIBLE;
            return new Type.TrackKind(k1.kind(), sup(k1.format(), k2.format(), d));
        }
        if (a instanceof Type.TrackFormat f1 && b instanceof Type.TrackFormat f2) {
            if (!f1.kind().equals(f2.kind())) throw INCOMPATIBLE;
            ContentFormat merged = f1.params().copy();
            if (!merged.merge(f2.params().copy())) throw INCOMPATIBLE;
            return a;
        }
        if (a instanceof Type.Meth m1) return methodSup(m1, m1.base(), b, d);
        if (b instanceof Type.Meth m2) return methodSup(m2, m2.base(), a, d);
        if (a instanceof Type.Constr c1 && isSourceOrFormat(c1)
                || b instanceof Type.Constr c2 && isSourceOrFormat(c2)) {
            return b;
        }
        if (a instanceof Type.Constr c1 && b instanceof Type.Constr c2) {
            if (!c1.name().equals(c2.name()) || c1.params().size() != c2.params().size()) {
                throw INCOMPATIBLE;
            }
            List<Type.Param> params = new ArrayList<>();
            for (int i = 0; i < c1.params().size(); i++) {
                Type.Param p1 = c1.params().get(i);
                Type.Param p2 = c2.params().get(i);
                if (p1.variance() != p2.variance()) throw INCOMPATIBLE;
                params.add(new Type.Param(p1.variance(), sup(p1.type(), p2.type(), d)));
            }
            return new Type.Constr(c1.name(), params);
        }
        if (a instanceof Type.Getter g1) {
            Type other =
                    b instanceof Type.Getter g2
                            ? g2.of()
                            : b instanceof Type.Arrow f2 && f2.args().isEmpty() ? f2.result() : b;
            return new Type.Getter(sup(g1.of(), other, d));
        }
        if (b instanceof Type.Getter g2) {
            Type other = a instanceof Type.Arrow f1 && f1.args().isEmpty() ? f1.result() : a;
            return new Type.Getter(sup(other, g2.of(), d));
        }
        if (a instanceof Type.Ground ga && ga.equals(b)) return a;
        throw INCOMPATIBLE;
    }

    private static boolean isSourceOrFormat(Type.Constr c) {
        return c.name().equals("source") || c.name().equals("format");
    }

    /** The supremum of {@code base.{m}} and {@code other}: m is optional unless both have it. */
    private Type methodSup(Type.Meth m, Type base, Type other, int d) {
        Type rest = Methods.hide(base, m.name());
        Type.Meth inOther = Methods.find(other, m.name());
        Type otherRest = Methods.hide(other, m.name());
        if (inOther != null) {
            try {
                Type.Scheme scheme = m.scheme();
                if (scheme.generalized().isEmpty() && inOther.scheme().generalized().isEmpty()) {
                    scheme = Type.Scheme.mono(sup(inOther.scheme().type(), m.scheme().type(), d));
                }
                return new Type.Meth(
                        m.name(),
                        m.optional() || inOther.optional(),
                        scheme,
                        m.jsonName(),
                        sup(rest, otherRest, d));
            } catch (Incompatible e) {
                return sup(rest, otherRest, d);
            }
        }
        return new Type.Meth(m.name(), true, m.scheme(), m.jsonName(), sup(rest, otherRest, d));
    }
}
