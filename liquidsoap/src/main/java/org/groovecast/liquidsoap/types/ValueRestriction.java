package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.ListElement;
import org.groovecast.liquidsoap.syntax.RecordEntry;
import org.groovecast.liquidsoap.syntax.Statement;

/**
 * Which definitions generalize (Liquidsoap's value restriction): variables, functions, {@code
 * null}, literals, lists, tuples and records of those, and applications whose result's unknowns are
 * all fixed by a mandatory argument of a function in it ({@code f(3)} with {@code f : ('a) -> 'a}
 * generalizes; {@code ref([])} does not, nor does {@code f()} with {@code f(x=null) = ref(x)}).
 * Field accesses, sequences and encoders do not. Generalizing more would be unsound: {@code r =
 * ref([])} used as an {@code [int]} and a {@code [string]}.
 */
final class ValueRestriction {
    private ValueRestriction() {}

    static boolean isValue(Context cx, Expr e) {
        return switch (e) {
            case Expr.Var v -> true;
            case Expr.Fun f -> true;
            case Expr.Getter g -> true;
            case Expr.NullLit n -> true;
            case Expr.IntLit i -> true;
            case Expr.FloatLit f -> true;
            case Expr.BoolLit b -> true;
            case Expr.StringLit s -> true;
            case Expr.RawStringLit s -> true;
            case Expr.InterpolatedString s -> true;
            case Expr.TupleLit t -> t.elements().stream().allMatch(x -> isValue(cx, x));
            case Expr.ListLit l -> {
                if (l.elements().stream().anyMatch(x -> x instanceof ListElement.Spread)) {
                    yield applied(cx, e);
                }
                yield l.elements().stream().allMatch(x -> isValue(cx, Inference.element(x)));
            }
            case Expr.RecordLit r -> {
                boolean ok = r.base() == null || isValue(cx, r.base());
                for (RecordEntry entry : r.entries()) {
                    ok &=
                            switch (entry) {
                                case RecordEntry.Field f -> isValue(cx, f.value());
                                case RecordEntry.Spread s -> isValue(cx, s.value());
                            };
                }
                yield ok;
            }
            case Expr.Cast c -> isValue(cx, c.value());
            case Expr.Parens p -> isValue(cx, p.inner());
            case Expr.Block b -> isValue(cx, b.body());
            case Expr.Sequence s -> sequence(cx, s.items());
            case Expr.IfDef d -> branch(cx, Conditions.taken(cx, d));
            case Expr.IfEncoder d -> branch(cx, Conditions.taken(cx, d));
            case Expr.IfVersion d -> branch(cx, Conditions.taken(cx, d));
            case Expr.Invoke i -> false;
            case Expr.Encoder enc -> false;
            case Expr.Include i -> true;
            case Expr.Coalesce c -> !(c.value() instanceof Expr.Invoke) && applied(cx, e);
            default -> applied(cx, e);
        };
    }

    private static boolean branch(Context cx, Expr.Sequence s) {
        return s == null || isValue(cx, s);
    }

    /** Definitions then one expression (a let's body); an expression dropped is not a value. */
    private static boolean sequence(Context cx, List<Statement> items) {
        if (items.isEmpty()) return true;
        for (int i = 0; i < items.size(); i++) {
            Statement s = items.get(i);
            boolean last = i == items.size() - 1;
            switch (s) {
                case Statement.Let l -> {
                    if (l.params() == null && !isValue(cx, l.value())) return false;
                }
                case Statement.Open o -> {
                    return false;
                }
                case Expr e -> {
                    if (!last || !isValue(cx, e)) return false;
                }
            }
        }
        return true;
    }

    private static boolean applied(Context cx, Expr e) {
        Type result = cx.applied.get(e);
        return result != null && appliedIsValue(result);
    }

    /** Whether the result of an application may be generalized. */
    static boolean appliedIsValue(Type result) {
        return unfixed(result, new ArrayList<>(), 0).isEmpty();
    }

    /**
     * The unknowns of a result not fixed by a mandatory argument of a function inside it
     * (Liquidsoap's filter_app_vars: a function's mandatory arguments fix the unknowns found so
     * far, in that order).
     */
    private static List<TypeVar> unfixed(Type t, List<TypeVar> acc, int depth) {
        if (depth > Limits.DEPTH) throw new TooComplex();
        t = Type.deref(t);
        switch (t) {
            case Type.Ground g -> {}
            case Type.TrackFormat f -> {}
            case Type.TrackKind k -> acc = unfixed(k.format(), acc, depth + 1);
            case Type.Getter g -> acc = unfixed(g.of(), acc, depth + 1);
            case Type.ListType l -> acc = unfixed(l.element(), acc, depth + 1);
            case Type.Nullable n -> acc = unfixed(n.of(), acc, depth + 1);
            case Type.TupleType tuple -> {
                for (Type e : tuple.elements()) acc = unfixed(e, acc, depth + 1);
            }
            case Type.Meth m -> {
                acc = unfixed(m.scheme().type(), acc, depth + 1);
                acc.removeAll(m.scheme().generalized());
                acc = unfixed(m.base(), acc, depth + 1);
            }
            case Type.Constr c -> {
                for (Type.Param p : c.params()) acc = unfixed(p.type(), acc, depth + 1);
            }
            case TypeVar v -> acc.add(v);
            case Type.Arrow a -> {
                acc = unfixed(a.result(), acc, depth + 1);
                List<TypeVar> fixed = new ArrayList<>();
                for (Type.Arg arg : a.args()) {
                    if (!arg.optional()) fixed = unfixed(arg.type(), fixed, depth + 1);
                }
                acc.removeIf(fixed::contains);
            }
        }
        return acc;
    }
}
