package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Arg;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Param;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.Statement;

/**
 * Definitions ({@code x = e}, {@code let}, {@code def}, with their decorations) and {@code open}. A
 * definition's value is checked one level deeper; when it is a value in Liquidsoap's sense (see
 * {@link ValueRestriction}) the variables it alone introduced are generalized, so each use of the
 * name gets its own instance. Patterns bind each name to its part of the value, as Liquidsoap's
 * rewriting of them into field accesses and list functions would.
 */
final class Definitions {
    private final Context cx;

    Definitions(Context cx) {
        this.cx = cx;
    }

    void let(Statement.Let l) {
        Expr value = l.value();
        String recursive = null;
        Type def;
        List<Param> params = l.params();
        if (params == null && value instanceof Expr.Fun f) params = f.params();
        cx.level++;
        try {
            def =
                    switch (l.decoration()) {
                        case EVAL, JSON_PARSE, YAML_PARSE, XML_PARSE, SQLITE_ROW, SQLITE_QUERY ->
                                parsed(l);
                        default -> {
                            if (l.decoration() == Statement.Decoration.RECURSIVE) {
                                recursive = name(l.pattern());
                            }
                            Type t =
                                    l.params() != null
                                            ? cx.applications.function(
                                                    l.span(), l.params(), value, recursive)
                                            : recursive != null && value instanceof Expr.Fun f
                                                    ? cx.applications.function(
                                                            f.span(),
                                                            f.params(),
                                                            f.body(),
                                                            recursive)
                                                    : cx.infer(value);
                            if (l.type() != null) {
                                Type cast = Annotations.of(l.type());
                                cx.subtype(value.span(), t, cast);
                                t = cast;
                            }
                            yield t;
                        }
                    };
        } finally {
            cx.level--;
        }
        boolean generalizes =
                l.decoration() == Statement.Decoration.EVAL
                                || l.decoration() == Statement.Decoration.JSON_PARSE
                                || l.decoration() == Statement.Decoration.YAML_PARSE
                                || l.decoration() == Statement.Decoration.XML_PARSE
                                || l.decoration() == Statement.Decoration.SQLITE_ROW
                                || l.decoration() == Statement.Decoration.SQLITE_QUERY
                        ? ValueRestriction.appliedIsValue(def)
                        : l.params() != null || ValueRestriction.isValue(cx, value);
        List<TypeVar> generalized =
                generalizes ? Generalization.generalizable(cx.level, def) : List.of();
        boolean replaces = l.decoration() == Statement.Decoration.REPLACES;
        if (l.pattern() instanceof Pattern.Var v) {
            List<Applications.ResolvedParam> resolved =
                    params == null ? null : cx.applications.resolve(params);
            bindName(v, def, generalized, replaces, l.span());
            cx.scope.definePath(v.name(), resolved);
        } else {
            bind(l.pattern(), def, generalized, l.span());
        }
    }

    /**
     * {@code let json.parse x = s} and the like: the parser's result, of the annotated type (a
     * fresh one without), from a string (a list of rows for {@code sqlite.query}).
     */
    private Type parsed(Statement.Let l) {
        for (Arg.Labelled o : l.options()) {
            Type t = cx.infer(o.value());
            if (o.label().equals("json5")) cx.subtype(o.value().span(), t, Type.BOOL);
        }
        Type input = cx.infer(l.value());
        Type result = l.type() == null ? cx.fresh() : Annotations.of(l.type());
        if (l.type() == null && l.decoration() == Statement.Decoration.JSON_PARSE) {
            cx.untypedJson.put(l.span(), result);
        }
        if (l.decoration() == Statement.Decoration.SQLITE_QUERY) {
            TypeVar row = cx.fresh();
            cx.subtype(l.span(), result, new Type.ListType(row, false));
            cx.subtype(l.value().span(), input, new Type.ListType(cx.fresh(), false));
        } else if (l.decoration() != Statement.Decoration.SQLITE_ROW) {
            cx.subtype(l.value().span(), input, Type.STRING);
        }
        return result;
    }

    private static String name(Pattern p) {
        if (p instanceof Pattern.Var v) return v.path().getLast();
        return null;
    }

    /** {@code x = e}, {@code def replaces x}, {@code let a.b.c = e}. */
    private void bindName(
            Pattern.Var v, Type def, List<TypeVar> generalized, boolean replaces, Span at) {
        TypeVar a = cx.fresh();
        cx.subtype(at, def, a);
        List<String> path = v.path();
        String root = path.getFirst();
        if (path.size() == 1) {
            Type t = a;
            if (replaces) {
                Scope.Binding old = cx.scope.get(root);
                if (old == null) throw cx.inference.undefined(at, root);
                t = Methods.remeth(cx.instantiate(old.scheme()), a);
            }
            cx.scope.add(root, new Type.Scheme(generalized, t));
            return;
        }
        Scope.Binding old = cx.scope.get(root);
        if (old == null) throw cx.inference.undefined(at, root);
        Type.Scheme s = old.scheme();
        Type t = a;
        if (replaces) {
            Type.Scheme previous = invokes(s.type(), path.subList(1, path.size()), at, root);
            t = Methods.remeth(previous.type(), a);
        }
        Type updated =
                withField(
                        s.type(),
                        path.subList(1, path.size()),
                        new Type.Scheme(generalized, t),
                        at,
                        root);
        cx.scope.add(root, new Type.Scheme(s.generalized(), updated));
    }

    /** {@code t} with the field at {@code path} set to {@code v}; the fields above must exist. */
    private Type withField(Type t, List<String> path, Type.Scheme v, Span at, String owner) {
        String first = path.getFirst();
        if (path.size() == 1) return new Type.Meth(first, false, v, null, t);
        Type.Meth m = Methods.find(t, first);
        if (m == null) throw noMethod(at, t, first);
        Type inner =
                withField(
                        m.scheme().type(),
                        path.subList(1, path.size()),
                        v,
                        at,
                        owner + "." + first);
        return new Type.Meth(
                first, false, new Type.Scheme(m.scheme().generalized(), inner), null, t);
    }

    private Type.Scheme invokes(Type t, List<String> path, Span at, String owner) {
        Type.Scheme s = Type.Scheme.mono(t);
        for (String name : path) {
            Type.Meth m = Methods.find(s.type(), name);
            if (m == null) throw noMethod(at, s.type(), name);
            s = m.scheme();
        }
        return s;
    }

    private static TypeError noMethod(Span at, Type t, String name) {
        return new TypeError(
                at,
                "This value has type "
                        + Messages.cut(TypePrinter.print(t))
                        + ", it cannot have method "
                        + name
                        + ".");
    }

    /** Binds the names of a pattern to the parts of a value of type {@code t}. */
    void bind(Pattern p, Type t, List<TypeVar> generalized, Span at) {
        switch (p) {
            case Pattern.Var v -> {
                TypeVar a = cx.fresh();
                cx.subtype(at, t, a);
                cx.scope.add(v.name(), new Type.Scheme(generalized, a));
            }
            case Pattern.Tuple tuple -> {
                List<Type> parts = new ArrayList<>();
                for (int i = 0; i < tuple.elements().size(); i++) parts.add(cx.fresh());
                cx.subtype(at, t, new Type.TupleType(parts));
                for (int i = 0; i < parts.size(); i++) {
                    bind(tuple.elements().get(i), parts.get(i), generalized, at);
                }
            }
            case Pattern.ListPattern l -> {
                TypeVar element = cx.fresh();
                Type list = new Type.ListType(element, false);
                cx.subtype(at, t, list);
                for (Pattern e : l.before()) bind(e, element, generalized, e.span());
                if (l.spread() != null) {
                    cx.scope.add(l.spread().name(), new Type.Scheme(generalized, list));
                }
                for (Pattern e : l.after()) bind(e, element, generalized, e.span());
            }
            // Liquidsoap reads the fields one by one (not values): no generalization
            case Pattern.RecordPattern r -> record(r, t, at);
        }
    }

    /**
     * {@code let base.{a, b?, c = p, ...rest} = v}: a is {@code v.a}, b is {@code v?.b}, p matches
     * {@code v.c}; base and rest are v without those fields.
     */
    private void record(Pattern.RecordPattern r, Type t, Span at) {
        List<TypeVar> generalized = List.of();
        Type hidden = t;
        for (Pattern.FieldPattern f : r.fields()) {
            hidden = new Type.Meth(f.name(), true, Type.Scheme.mono(Type.NEVER), null, hidden);
        }
        Expr.Var whole = new Expr.Var(r.span(), "_");
        for (Pattern.FieldPattern f : r.fields()) {
            Type field = cx.invocations.field(whole, t, f.name(), f.nullable());
            if (f.nullable()) field = Type.nullable(field);
            if (f.pattern() != null) {
                bind(f.pattern(), field, generalized, f.span());
            } else {
                TypeVar a = cx.fresh();
                cx.subtype(f.span(), field, a);
                cx.scope.add(f.name(), new Type.Scheme(generalized, a));
            }
        }
        if (r.base() != null) bind(r.base(), hidden, generalized, at);
        if (r.spread() != null)
            cx.scope.add(r.spread().name(), new Type.Scheme(generalized, hidden));
    }

    /**
     * After a definition failed (when checking goes on after errors): its names, of any type, so
     * that what follows does not fail because of it.
     */
    void bindAnything(Statement.Let l) {
        TypeVar any = new TypeVar(TypeVar.ANY_LEVEL);
        Type.Scheme anything = new Type.Scheme(List.of(any), any);
        if (l.pattern() instanceof Pattern.Var v && v.path().size() > 1) {
            try {
                bindName(v, any, List.of(any), false, l.span());
            } catch (TypeError e) {
                // the module it extends does not exist either
            }
            return;
        }
        for (String name : names(l.pattern())) cx.scope.add(name, anything);
    }

    /** The names a pattern binds. */
    static List<String> names(Pattern p) {
        List<String> out = new ArrayList<>();
        collect(p, out);
        return out;
    }

    private static void collect(Pattern p, List<String> out) {
        switch (p) {
            case Pattern.Var v -> out.add(v.name());
            case Pattern.Tuple t -> t.elements().forEach(e -> collect(e, out));
            case Pattern.ListPattern l -> {
                l.before().forEach(e -> collect(e, out));
                if (l.spread() != null) out.add(l.spread().name());
                l.after().forEach(e -> collect(e, out));
            }
            case Pattern.RecordPattern r -> {
                for (Pattern.FieldPattern f : r.fields()) {
                    if (f.pattern() == null) out.add(f.name());
                    else collect(f.pattern(), out);
                }
                if (r.base() != null) collect(r.base(), out);
                if (r.spread() != null) out.add(r.spread().name());
            }
        }
    }

    /** {@code open m}: m's fields in scope; m must be a record. */
    void open(Statement.Open o) {
        Type m = cx.infer(o.module());
        cx.subtype(o.module().span(), m, Type.UNIT);
        Methods.Split split = Methods.split(m);
        for (Type.Meth f : split.methods()) cx.scope.add(f.name(), f.scheme());
    }
}
