package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A type as it is shown to the script's author (Liquidsoap's {@code Repr.t}): variables named,
 * parts left out ({@code _}) where an error message only needs the part that differs. Unknown
 * variables are {@code 'A}, {@code 'B}... and generalized ones {@code 'a}, {@code 'b}..., named
 * afresh in each representation.
 */
sealed interface Repr {
    record Constr(String name, List<Repr> params) implements Repr {}

    record ListOf(Repr element, boolean jsonObject) implements Repr {}

    record Tuple(List<Repr> elements) implements Repr {}

    record Nullable(Repr of) implements Repr {}

    record Meth(
            String name,
            boolean optional,
            List<String> generalized,
            Repr type,
            String jsonName,
            Repr base)
            implements Repr {}

    record Arrow(List<Arg> args, Repr result) implements Repr {}

    record Arg(boolean optional, String label, Repr type) {}

    record Getter(Repr of) implements Repr {}

    /** A variable; {@code constraints} are printed in a {@code where} clause. */
    record Var(String name, List<Constraint> constraints) implements Repr {}

    /** A part left out: {@code _}. */
    record Ellipsis() implements Repr {}

    /** Arguments left out: {@code ...}. */
    record RangeEllipsis() implements Repr {}

    Repr ELLIPSIS = new Ellipsis();
    Repr RANGE_ELLIPSIS = new RangeEllipsis();

    static Repr of(Type t) {
        return new Maker(x -> false).make(t, List.of());
    }

    static Repr of(Type t, List<TypeVar> generalized) {
        return new Maker(x -> false).make(t, generalized);
    }

    /** {@code t} with the parts {@code leaveOut} accepts shown as {@code _}. */
    static Repr of(Type t, Predicate<Type> leaveOut) {
        return new Maker(leaveOut).make(t, List.of());
    }

    /** Builds a representation, naming the variables met. */
    final class Maker {
        private final Predicate<Type> leaveOut;
        private final Map<TypeVar, String> unknown = new IdentityHashMap<>();
        private int depth;

        Maker(Predicate<Type> leaveOut) {
            this.leaveOut = leaveOut;
        }

        Repr make(Type t, List<TypeVar> g) {
            if (leaveOut.test(t)) return ELLIPSIS;
            // a type shown is for a person to read: past this depth it says no more
            if (++depth > 64) {
                depth--;
                return ELLIPSIS;
            }
            try {
                return switch (t) {
                    case Type.Ground ground -> new Constr(ground.name(), List.of());
                    case Type.Constr c -> {
                        List<Repr> params = new ArrayList<>();
                        for (Type.Param p : c.params()) params.add(make(p.type(), g));
                        yield new Constr(c.name(), params);
                    }
                    case Type.ListType l -> new ListOf(make(l.element(), g), l.jsonObject());
                    case Type.TupleType tuple -> {
                        List<Repr> elements = new ArrayList<>();
                        for (Type e : tuple.elements()) elements.add(make(e, g));
                        yield new Tuple(elements);
                    }
                    case Type.Nullable n -> new Nullable(make(n.of(), g));
                    case Type.Meth m -> {
                        List<TypeVar> inner = g;
                        if (!m.scheme().generalized().isEmpty()) {
                            inner = new ArrayList<>(g);
                            inner.addAll(m.scheme().generalized());
                        }
                        List<String> names = new ArrayList<>();
                        for (TypeVar v : m.scheme().generalized()) names.add(universal(inner, v));
                        yield new Meth(
                                m.name(),
                                m.optional(),
                                names,
                                make(m.scheme().type(), inner),
                                m.jsonName(),
                                make(m.base(), g));
                    }
                    case Type.Arrow a -> {
                        List<Arg> args = new ArrayList<>();
                        for (Type.Arg arg : a.args()) {
                            args.add(new Arg(arg.optional(), arg.label(), make(arg.type(), g)));
                        }
                        yield new Arrow(args, make(a.result(), g));
                    }
                    case Type.Getter getter -> new Getter(make(getter.of(), g));
                    case Type.TrackKind k -> {
                        Type f = Type.deref(k.format());
                        if (f instanceof Type.TrackFormat format) yield format(format);
                        yield new Constr(k.kind(), List.of(make(k.format(), g)));
                    }
                    case Type.TrackFormat f -> format(f);
                    case TypeVar v -> {
                        if (v.link() != null) yield make(v.link(), g);
                        if (g.contains(v)) {
                            yield new Var(universal(g, v), v.constraints());
                        }
                        yield new Var(unknown(v), v.constraints());
                    }
                };
            } finally {
                depth--;
            }
        }

        private static Repr format(Type.TrackFormat f) {
            String params = f.params().describe();
            return new Constr(
                    params.isEmpty() ? f.kind() : f.kind() + "(" + params + ")", List.of());
        }

        /** Generalized variables are named in the order they first occur, outermost first. */
        private static String universal(List<TypeVar> g, TypeVar v) {
            int i = g.indexOf(v);
            return "'" + letters(i < 0 ? g.size() + 1 : i + 1);
        }

        private String unknown(TypeVar v) {
            return unknown.computeIfAbsent(
                    v, x -> "'" + letters(unknown.size() + 1).toUpperCase(java.util.Locale.ROOT));
        }

        /** 1 is a, 26 is z, 27 is aa... */
        static String letters(int n) {
            StringBuilder b = new StringBuilder();
            while (n > 0) {
                int head = n % 26 == 0 ? 26 : n % 26;
                b.insert(0, (char) ('a' + head - 1));
                n = (n - head) / 26;
            }
            return b.toString();
        }
    }
}
