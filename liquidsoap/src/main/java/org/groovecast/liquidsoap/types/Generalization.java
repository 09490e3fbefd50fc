package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Let-polymorphism: the free variables a definition may generalize, and fresh instances of a scheme
 * at each use. Liquidsoap's value restriction decides which definitions generalize (see {@link
 * Inference}); this class does the rest.
 */
final class Generalization {
    private Generalization() {}

    /** The free variables of {@code t} above {@code level}, in the order they first occur. */
    static List<TypeVar> generalizable(int level, Type t) {
        List<TypeVar> found = new ArrayList<>();
        freeVars(t, v -> v.level() > level, found, 0);
        return found;
    }

    static Type.Scheme generalize(int level, Type t) {
        return new Type.Scheme(generalizable(level, t), t);
    }

    /** Collects the free variables of {@code t} that {@code select} accepts. */
    static void freeVars(Type t, Predicate<TypeVar> select, List<TypeVar> found, int depth) {
        if (depth > Limits.DEPTH) throw new TooComplex();
        t = Type.deref(t);
        switch (t) {
            case Type.Ground g -> {}
            case Type.TrackFormat f -> {}
            case Type.TrackKind k -> freeVars(k.format(), select, found, depth + 1);
            case Type.Getter g -> freeVars(g.of(), select, found, depth + 1);
            case Type.ListType l -> freeVars(l.element(), select, found, depth + 1);
            case Type.Nullable n -> freeVars(n.of(), select, found, depth + 1);
            case Type.TupleType tuple -> {
                for (Type e : tuple.elements()) freeVars(e, select, found, depth + 1);
            }
            case Type.Meth m -> {
                List<TypeVar> bound = m.scheme().generalized();
                if (bound.isEmpty()) {
                    freeVars(m.scheme().type(), select, found, depth + 1);
                } else {
                    freeVars(
                            m.scheme().type(),
                            v -> select.test(v) && !bound.contains(v),
                            found,
                            depth + 1);
                }
                freeVars(m.base(), select, found, depth + 1);
            }
            case Type.Constr c -> {
                for (Type.Param p : c.params()) freeVars(p.type(), select, found, depth + 1);
            }
            case Type.Arrow a -> {
                for (Type.Arg arg : a.args()) freeVars(arg.type(), select, found, depth + 1);
                freeVars(a.result(), select, found, depth + 1);
            }
            case TypeVar v -> {
                if (select.test(v) && !found.contains(v)) found.add(v);
            }
        }
    }

    /** A fresh instance of a scheme: its generalized variables replaced by new ones at level. */
    static Type instantiate(int level, Type.Scheme scheme) {
        if (scheme.generalized().isEmpty()) return scheme.type();
        return new Copier(scheme.generalized(), level).copy(scheme.type(), 0);
    }

    /**
     * A copy of a type with some variables replaced. The links it goes through are copied too (but
     * for fixed ones with nothing to replace behind them): a covariant link may still be widened,
     * and the copy's widening must not change the original.
     */
    static final class Copier {
        private final List<TypeVar> selected;
        private final boolean all;
        private final int level;
        private final Map<TypeVar, TypeVar> vars = new IdentityHashMap<>();
        private final Map<TypeVar, Type> links = new IdentityHashMap<>();

        /** Replaces {@code selected} by new variables at {@code level}. */
        Copier(List<TypeVar> selected, int level) {
            this.selected = selected;
            this.all = false;
            this.level = level;
        }

        /** Replaces every free variable (keeping its level): a copy independent of the original. */
        Copier() {
            this.selected = List.of();
            this.all = true;
            this.level = -1;
        }

        Type copy(Type t, int depth) {
            if (depth > Limits.DEPTH) throw new TooComplex();
            return switch (t) {
                case Type.Ground g -> g;
                case Type.TrackFormat f -> new Type.TrackFormat(f.kind(), f.params().copy());
                case Type.TrackKind k -> {
                    Type f = copy(k.format(), depth + 1);
                    yield f == k.format() ? k : new Type.TrackKind(k.kind(), f);
                }
                case Type.Getter g -> {
                    Type of = copy(g.of(), depth + 1);
                    yield of == g.of() ? g : new Type.Getter(of);
                }
                case Type.ListType l -> {
                    Type e = copy(l.element(), depth + 1);
                    yield e == l.element() ? l : new Type.ListType(e, l.jsonObject());
                }
                case Type.Nullable n -> {
                    Type of = copy(n.of(), depth + 1);
                    yield of == n.of() ? n : new Type.Nullable(of);
                }
                case Type.TupleType tuple -> {
                    List<Type> elements = copyAll(tuple.elements(), depth);
                    yield elements == null ? tuple : new Type.TupleType(elements);
                }
                case Type.Meth m -> {
                    Type mt = copy(m.scheme().type(), depth + 1);
                    List<TypeVar> g = m.scheme().generalized();
                    List<TypeVar> g2 = g;
                    if (!g.isEmpty() && all) {
                        g2 = new ArrayList<>(g.size());
                        for (TypeVar v : g) g2.add(copyVar(v));
                    }
                    Type base = copy(m.base(), depth + 1);
                    if (mt == m.scheme().type() && base == m.base() && g2 == g) yield m;
                    yield new Type.Meth(
                            m.name(), m.optional(), new Type.Scheme(g2, mt), m.jsonName(), base);
                }
                case Type.Constr c -> {
                    List<Type.Param> params = null;
                    for (int i = 0; i < c.params().size(); i++) {
                        Type.Param p = c.params().get(i);
                        Type pt = copy(p.type(), depth + 1);
                        if (pt != p.type() && params == null) {
                            params = new ArrayList<>(c.params().subList(0, i));
                        }
                        if (params != null) params.add(new Type.Param(p.variance(), pt));
                    }
                    yield params == null ? c : new Type.Constr(c.name(), params);
                }
                case Type.Arrow a -> {
                    List<Type.Arg> args = null;
                    for (int i = 0; i < a.args().size(); i++) {
                        Type.Arg arg = a.args().get(i);
                        Type at = copy(arg.type(), depth + 1);
                        if (at != arg.type() && args == null) {
                            args = new ArrayList<>(a.args().subList(0, i));
                        }
                        if (args != null) args.add(new Type.Arg(arg.optional(), arg.label(), at));
                    }
                    Type r = copy(a.result(), depth + 1);
                    if (args == null && r == a.result()) yield a;
                    yield new Type.Arrow(args == null ? a.args() : args, r);
                }
                case TypeVar v -> copyVarType(v, depth);
            };
        }

        /** A scheme copied: its generalized variables are the copies of its own. */
        Type.Scheme copy(Type.Scheme s) {
            Type t = copy(s.type(), 0);
            if (s.generalized().isEmpty()) return new Type.Scheme(List.of(), t);
            List<TypeVar> g = new ArrayList<>(s.generalized().size());
            for (TypeVar v : s.generalized()) g.add(all ? copyVar(v) : v);
            return new Type.Scheme(g, t);
        }

        private List<Type> copyAll(List<Type> types, int depth) {
            List<Type> out = null;
            for (int i = 0; i < types.size(); i++) {
                Type c = copy(types.get(i), depth + 1);
                if (c != types.get(i) && out == null) out = new ArrayList<>(types.subList(0, i));
                if (out != null) out.add(c);
            }
            return out;
        }

        private Type copyVarType(TypeVar v, int depth) {
            if (v.link() == null) {
                return all || selected.contains(v) ? copyVar(v) : v;
            }
            Type done = links.get(v);
            if (done != null) return done;
            Type target = copy(v.link(), depth + 1);
            Type result;
            if (target == v.link() && v.variance() == Type.Variance.INVARIANT) {
                result = v;
            } else {
                TypeVar copy = new TypeVar(v.level());
                copy.link(v.variance(), target);
                result = copy;
            }
            links.put(v, result);
            return result;
        }

        private TypeVar copyVar(TypeVar v) {
            TypeVar copy = vars.get(v);
            if (copy == null) {
                copy = new TypeVar(all ? v.level() : level, v.constraints());
                vars.put(v, copy);
            }
            return copy;
        }
    }
}
