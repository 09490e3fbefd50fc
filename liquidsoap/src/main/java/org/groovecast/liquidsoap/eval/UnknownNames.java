package org.groovecast.liquidsoap.eval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.groovecast.liquidsoap.syntax.Arg;
import org.groovecast.liquidsoap.syntax.ArgsOf;
import org.groovecast.liquidsoap.syntax.EncoderParam;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.ListElement;
import org.groovecast.liquidsoap.syntax.Param;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.RecordEntry;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.Statement;

/**
 * Finds, before anything runs, the names a script uses that nothing defines: {@code foo(1)} with no
 * {@code foo}, {@code list.mapp(f, l)} where the library's {@code list} has no {@code mapp}, each
 * with the closest known name. It follows scopes as the evaluator does ({@code %ifdef} branches
 * chosen the same way), and says nothing where it cannot know (the fields of a script's own values,
 * the names an {@code open} of a script's value brings), so what it reports is certainly wrong; the
 * type checker finds the rest.
 */
public final class UnknownNames {
    private final Map<String, Object> globals;
    private final Evaluator evaluator;
    private final List<LiqError> found = new ArrayList<>();

    private UnknownNames(Map<String, Object> globals, Evaluator evaluator) {
        this.globals = globals;
        this.evaluator = evaluator;
    }

    /** The unknown names of {@code program}, in the order written. */
    public static List<LiqError> in(
            Expr.Sequence program, Map<String, Object> globals, Evaluator evaluator) {
        UnknownNames u = new UnknownNames(globals, evaluator);
        u.items(program.items(), new Scope(null, Set.of(), false));
        return u.found;
    }

    /**
     * The names in scope: one link per definition group; {@code open} marks a scope where any name
     * may come from a value.
     */
    private record Scope(Scope parent, Set<String> names, boolean anything) {
        boolean has(String name) {
            for (Scope s = this; s != null; s = s.parent) {
                if (s.anything || s.names.contains(name)) return true;
            }
            return false;
        }

        Scope with(Set<String> more) {
            return new Scope(this, more, false);
        }

        Scope withAnything() {
            return new Scope(this, Set.of(), true);
        }
    }

    private Scope items(List<Statement> items, Scope scope) {
        for (Statement item : items) scope = item(item, scope);
        return scope;
    }

    private Scope item(Statement item, Scope scope) {
        switch (item) {
            case Statement.Let let -> {
                return let(let, scope);
            }
            case Statement.Open open -> {
                expr(open.module(), scope);
                Object m = staticValue(open.module(), scope);
                if (m == Env.MISSING) return scope.withAnything();
                return scope.with(new HashSet<>(evaluator.fieldsOf(m).keySet()));
            }
            case Expr.IfDef d -> {
                Expr.Sequence b = defined(d, scope) ? d.then() : d.otherwise();
                return b == null ? scope : items(b.items(), scope);
            }
            case Expr.IfEncoder d -> {
                String name = d.encoder().startsWith("%") ? d.encoder().substring(1) : d.encoder();
                Expr.Sequence b =
                        evaluator.hooks().encoderAvailable(name) != d.negative()
                                ? d.then()
                                : d.otherwise();
                return b == null ? scope : items(b.items(), scope);
            }
            case Expr.IfVersion d -> {
                // Both branches are for some version: only the one for ours is checked.
                Expr.Sequence b = Evaluator.version(d) ? d.then() : d.otherwise();
                return b == null ? scope : items(b.items(), scope);
            }
            case Expr e -> {
                expr(e, scope);
                return scope;
            }
        }
    }

    private boolean defined(Expr.IfDef d, Scope scope) {
        String[] path = d.name().split("\\.");
        boolean yes;
        if (scope.has(path[0])) yes = true;
        else {
            Object v = globals.containsKey(path[0]) ? globals.get(path[0]) : Env.MISSING;
            for (int i = 1; i < path.length && v != Env.MISSING; i++)
                v = evaluator.field(v, path[i]);
            yes = v != Env.MISSING;
        }
        return yes != d.negative();
    }

    private Scope let(Statement.Let let, Scope scope) {
        Set<String> bound = new HashSet<>();
        bind(let.pattern(), bound);
        if (let.pattern() instanceof Pattern.Var v && v.path().size() > 1) {
            String root = v.path().getFirst();
            if (!scope.has(root) && !globals.containsKey(root))
                unknown(root, let.span(), scope, false);
        }
        for (Arg.Labelled o : let.options()) expr(o.value(), scope);
        if (let.params() != null) {
            Scope inner = params(let.params(), scope);
            if (let.decoration() == Statement.Decoration.RECURSIVE) inner = inner.with(bound);
            expr(let.value(), inner);
        } else {
            expr(let.value(), scope);
        }
        return scope.with(bound);
    }

    private Scope params(List<Param> params, Scope scope) {
        Set<String> names = new HashSet<>();
        boolean anything = false;
        for (Param p : params) {
            switch (p) {
                case Param.Positional pos -> {
                    if (pos.fallback() != null) expr(pos.fallback(), scope);
                    bind(pos.pattern(), names);
                }
                case Param.Labelled lab -> {
                    if (lab.fallback() != null) expr(lab.fallback(), scope);
                    if (lab.as() != null) bind(lab.as(), names);
                    else names.add(lab.label());
                }
                case ArgsOf of -> {
                    Object f = staticPath(of.source(), scope);
                    if (Values.base(f) instanceof Fn fn) {
                        for (Parameter q : fn.parameters())
                            if (!q.isPositional()) names.add(q.label());
                    } else {
                        anything = true;
                    }
                }
            }
        }
        Scope inner = scope.with(names);
        return anything ? inner.withAnything() : inner;
    }

    private static void bind(Pattern p, Set<String> names) {
        switch (p) {
            case Pattern.Var v -> {
                if (!v.name().equals("_")) names.add(v.path().getFirst());
            }
            case Pattern.Tuple t -> t.elements().forEach(e -> bind(e, names));
            case Pattern.ListPattern l -> {
                l.before().forEach(e -> bind(e, names));
                l.after().forEach(e -> bind(e, names));
                if (l.spread() != null && !l.spread().name().equals("_"))
                    names.add(l.spread().name());
            }
            case Pattern.RecordPattern r -> {
                if (r.base() != null) bind(r.base(), names);
                for (Pattern.FieldPattern f : r.fields()) {
                    if (f.pattern() != null) bind(f.pattern(), names);
                    else names.add(f.name());
                }
                if (r.spread() != null && !r.spread().name().equals("_"))
                    names.add(r.spread().name());
            }
        }
    }

    private void expr(Expr e, Scope scope) {
        switch (e) {
            case Expr.Var v -> {
                if (!scope.has(v.name())
                        && !globals.containsKey(v.name())
                        && !v.name().equals("_null")) {
                    unknown(v.name(), v.span(), scope, false);
                }
            }
            case Expr.Call c -> {
                if (c.function() instanceof Expr.Var v) {
                    if (!scope.has(v.name())
                            && !globals.containsKey(v.name())
                            && !v.name().equals("_null")) {
                        unknown(v.name(), v.span(), scope, true);
                    }
                } else {
                    expr(c.function(), scope);
                }
                args(c.args(), scope);
            }
            case Expr.MethodCall m -> {
                field(m.target(), m.name(), m.optional(), m.span(), scope, true);
                args(m.args(), scope);
            }
            case Expr.Invoke i -> field(i.target(), i.name(), i.optional(), i.span(), scope, false);
            case Expr.InterpolatedString s -> s.parts().forEach(p -> expr(p, scope));
            case Expr.TupleLit t -> t.elements().forEach(x -> expr(x, scope));
            case Expr.ListLit l -> {
                for (ListElement el : l.elements()) {
                    switch (el) {
                        case ListElement.Item item -> expr(item.value(), scope);
                        case ListElement.Spread s -> expr(s.value(), scope);
                    }
                }
            }
            case Expr.RecordLit r -> {
                if (r.base() != null) expr(r.base(), scope);
                for (RecordEntry entry : r.entries()) {
                    switch (entry) {
                        case RecordEntry.Field f -> expr(f.value(), scope);
                        case RecordEntry.Spread s -> expr(s.value(), scope);
                    }
                }
            }
            case Expr.Assoc a -> {
                expr(a.target(), scope);
                expr(a.key(), scope);
            }
            case Expr.Not n -> expr(n.operand(), scope);
            case Expr.Negative n -> expr(n.operand(), scope);
            case Expr.Get g -> expr(g.reference(), scope);
            case Expr.Set s -> {
                expr(s.reference(), scope);
                expr(s.value(), scope);
            }
            case Expr.Infix i -> {
                expr(i.left(), scope);
                expr(i.right(), scope);
            }
            case Expr.BoolOp b -> b.operands().forEach(x -> expr(x, scope));
            case Expr.Coalesce c -> {
                lenient(c.value(), scope);
                expr(c.fallback(), scope);
            }
            case Expr.Cons c -> {
                expr(c.head(), scope);
                expr(c.tail(), scope);
            }
            case Expr.At a -> {
                expr(a.argument(), scope);
                expr(a.function(), scope);
            }
            case Expr.If i -> {
                items(i.condition().items(), scope);
                items(i.then().items(), scope);
                for (Expr.ElseIf x : i.elsifs()) {
                    items(x.condition().items(), scope);
                    items(x.then().items(), scope);
                }
                if (i.otherwise() != null) items(i.otherwise().items(), scope);
            }
            case Expr.InlineIf i -> {
                expr(i.condition(), scope);
                expr(i.then(), scope);
                expr(i.otherwise(), scope);
            }
            case Expr.While w -> {
                expr(w.condition(), scope);
                items(w.body().items(), scope);
            }
            case Expr.For f -> {
                expr(f.from(), scope);
                expr(f.to(), scope);
                items(f.body().items(), scope.with(Set.of(f.variable())));
            }
            case Expr.ForEach f -> {
                expr(f.iterator(), scope);
                items(f.body().items(), scope.with(Set.of(f.variable())));
            }
            case Expr.Try t -> {
                items(t.body().items(), scope);
                if (t.errors() != null) expr(t.errors(), scope);
                if (t.handler() != null)
                    items(t.handler().items(), scope.with(Set.of(t.variable())));
                if (t.ensure() != null) items(t.ensure().items(), scope);
            }
            case Expr.Block b -> items(b.body().items(), scope);
            case Expr.Parens p -> expr(p.inner(), scope);
            case Expr.Cast c -> expr(c.value(), scope);
            case Expr.Fun f -> expr(f.body(), params(f.params(), scope));
            case Expr.Getter g -> items(g.body().items(), scope);
            case Expr.Encoder enc -> encoder(enc, scope);
            case Expr.Sequence s -> items(s.items(), scope);
            case Expr.IfDef d -> item(d, scope);
            case Expr.IfEncoder d -> item(d, scope);
            case Expr.IfVersion d -> item(d, scope);
            default -> {}
        }
    }

    private void encoder(Expr.Encoder enc, Scope scope) {
        for (EncoderParam p : enc.params()) {
            switch (p) {
                case EncoderParam.Labelled l -> expr(l.value(), scope);
                case EncoderParam.Nested n -> encoder(n.encoder(), scope);
                case EncoderParam.Flag f -> {}
            }
        }
    }

    private void args(List<Arg> args, Scope scope) {
        for (Arg a : args) {
            switch (a) {
                case Arg.Positional p -> expr(p.value(), scope);
                case Arg.Labelled l -> expr(l.value(), scope);
                case ArgsOf of -> {}
            }
        }
    }

    /** {@code x.a.b ?? d}: fields missing on the way are allowed. */
    private void lenient(Expr e, Scope scope) {
        if (e instanceof Expr.Invoke i) lenient(i.target(), scope);
        else expr(e, scope);
    }

    /** {@code target.name}: checked when target is a library value the script left as it was. */
    private void field(
            Expr target, String name, boolean optional, Span at, Scope scope, boolean called) {
        expr(target, scope);
        if (optional) return;
        Object v = staticValue(target, scope);
        // a library function without fields (playlist, where Liquidsoap has playlist.parse) too
        if (v == Env.MISSING
                || !(v instanceof Rec
                        || Values.base(v) instanceof HasFields
                        || Values.base(v) instanceof Fn)) {
            return;
        }
        if (evaluator.field(v, name) != Env.MISSING) return;
        String path = pathOf(target) + "." + name;
        List<String> known = new ArrayList<>();
        for (String f : evaluator.fieldsOf(v).keySet()) known.add(pathOf(target) + "." + f);
        found.add(
                Errors.at(
                        at,
                        "invalid",
                        "unknown "
                                + (called ? "function " : "variable ")
                                + path
                                + Names.didYouMean(path, known)));
    }

    /**
     * The value of {@code list}, {@code string.escape}: a path of the library's, untouched by the
     * script.
     */
    private Object staticValue(Expr e, Scope scope) {
        if (e instanceof Expr.Var v) {
            if (scope.has(v.name()) || !globals.containsKey(v.name())) return Env.MISSING;
            return globals.get(v.name());
        }
        if (e instanceof Expr.Invoke i && !i.optional()) {
            Object t = staticValue(i.target(), scope);
            return t == Env.MISSING ? t : evaluator.field(t, i.name());
        }
        return Env.MISSING;
    }

    private Object staticPath(String path, Scope scope) {
        String[] parts = path.split("\\.");
        if (scope.has(parts[0]) || !globals.containsKey(parts[0])) return Env.MISSING;
        Object v = globals.get(parts[0]);
        for (int i = 1; i < parts.length && v != Env.MISSING; i++) v = evaluator.field(v, parts[i]);
        return v;
    }

    private static String pathOf(Expr e) {
        if (e instanceof Expr.Var v) return v.name().equals("_null") ? "null" : v.name();
        if (e instanceof Expr.Invoke i) return pathOf(i.target()) + "." + i.name();
        return "(value)";
    }

    private void unknown(String name, Span at, Scope scope, boolean called) {
        Set<String> known = new HashSet<>(globals.keySet());
        for (Scope s = scope; s != null; s = s.parent) known.addAll(s.names);
        found.add(
                Errors.at(
                        at,
                        "invalid",
                        "unknown "
                                + (called ? "function " : "variable ")
                                + name
                                + Names.didYouMean(name, known)));
    }
}
