package org.groovecast.liquidsoap.eval;

import java.nio.file.Path;
import java.util.List;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.syntax.Arg;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.Statement;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * Definitions: {@code x = e}, {@code let p = e}, {@code def f(...) ... end}, with their decorations
 * ({@code rec}, {@code replaces}, {@code eval}, {@code json.parse}), and {@code let a.b.c = e},
 * which makes {@code a} anew with the field changed (the old value is untouched: a closure that saw
 * it keeps seeing it, as in Liquidsoap).
 */
final class Definitions {
    private final Evaluator ev;

    Definitions(Evaluator ev) {
        this.ev = ev;
    }

    Env define(Statement.Let let, Env env) {
        Pattern pattern = let.pattern();
        Span at = let.span();
        if (let.params() != null) {
            List<String> path = ((Pattern.Var) pattern).path();
            String name = String.join(".", path);
            Closure f = ev.closure(name, let.params(), let.value(), env, at, false);
            if (let.decoration() == Statement.Decoration.RECURSIVE) {
                Env self = assign(path, f, env, at);
                f.recursive(self);
                return self;
            }
            return assign(path, replaced(let, path, f, env), env, at);
        }
        Object value =
                switch (let.decoration()) {
                    case JSON_PARSE -> json(let, env);
                    case YAML_PARSE -> yaml(let, env);
                    case XML_PARSE -> xml(let, env);
                    case EVAL -> evalString(let, env);
                    case SQLITE_ROW, SQLITE_QUERY ->
                            throw Errors.at(
                                    at,
                                    "invalid",
                                    "let "
                                            + let.decoration()
                                                    .name()
                                                    .toLowerCase()
                                                    .replace('_', '.')
                                            + " is not supported by Groovecast");
                    default -> ev.eval(let.value(), env);
                };
        if (pattern instanceof Pattern.Var v) {
            if (v.path().size() == 1 && v.name().equals("_")) return env;
            return assign(v.path(), replaced(let, v.path(), value, env), env, at);
        }
        return ev.bind(pattern, value, env, at);
    }

    /** {@code def replaces x}: the new value keeps the old one's fields. */
    private Object replaced(Statement.Let let, List<String> path, Object value, Env env) {
        if (let.decoration() != Statement.Decoration.REPLACES) return value;
        Object old = lookupPath(path, env, let.span());
        return Rec.with(Values.base(value), Values.fields(old));
    }

    private Object lookupPath(List<String> path, Env env, Span at) {
        Object v = env.lookup(path.getFirst());
        if (v == Env.MISSING) throw unknown(path.getFirst(), env, at);
        for (int i = 1; i < path.size(); i++) v = ev.fieldOrFail(v, path.get(i), false, at);
        return v;
    }

    private static LiqError unknown(String name, Env env, Span at) {
        return Errors.at(
                at, "invalid", "unknown variable " + name + Names.didYouMean(name, env.names()));
    }

    /** Binds {@code x}, or remakes {@code a} with {@code a.b.c} set. */
    private Env assign(List<String> path, Object value, Env env, Span at) {
        if (path.size() == 1) return env.bind(path.getFirst(), value);
        Object root = env.lookup(path.getFirst());
        if (root == Env.MISSING) throw unknown(path.getFirst(), env, at);
        return env.bind(path.getFirst(), withPath(root, path, 1, value, at));
    }

    private Object withPath(Object v, List<String> path, int i, Object value, Span at) {
        String name = path.get(i);
        if (i == path.size() - 1) return Rec.with(v, name, value);
        Object inner = ev.fieldOrFail(v, name, false, at);
        return Rec.with(v, name, withPath(inner, path, i + 1, value, at));
    }

    private Object json(Statement.Let let, Env env) {
        Object text = Values.base(ev.eval(let.value(), env));
        if (!(text instanceof String s)) {
            throw Errors.at(
                    let.span(),
                    "invalid",
                    "let json.parse needs a string, got " + Values.describe(text));
        }
        boolean json5 = false;
        for (Arg.Labelled o : let.options()) {
            if (o.label().equals("json5")) json5 = Values.truth(ev.eval(o.value(), env), o.span());
        }
        try {
            Object parsed = Json.parse(s, json5);
            TypeAnnotation type = let.type() != null ? let.type() : ev.jsonType(let.span());
            return type == null ? parsed : JsonDecoding.decode(parsed, type);
        } catch (LiqError e) {
            throw e.locate(let.span());
        }
    }

    /** {@code let yaml.parse (x : T) = s}: the document read as {@code let json.parse} reads. */
    private Object yaml(Statement.Let let, Env env) {
        Object text = Values.base(ev.eval(let.value(), env));
        if (!(text instanceof String s)) {
            throw Errors.at(
                    let.span(),
                    "invalid",
                    "let yaml.parse needs a string, got " + Values.describe(text));
        }
        try {
            Object parsed = Yaml.parse(s);
            if (let.type() == null) return parsed;
            try {
                return JsonDecoding.decode(parsed, let.type());
            } catch (LiqError e) {
                throw Errors.of(
                        "yaml",
                        "Parse error: yaml value cannot be parsed as type: "
                                + JsonDecoding.show(let.type()));
            }
        } catch (LiqError e) {
            throw e.locate(let.span());
        }
    }

    /** {@code let xml.parse (x : T) = s}: see {@link XmlDecoding}. */
    private Object xml(Statement.Let let, Env env) {
        Object text = Values.base(ev.eval(let.value(), env));
        if (!(text instanceof String s)) {
            throw Errors.at(
                    let.span(),
                    "invalid",
                    "let xml.parse needs a string, got " + Values.describe(text));
        }
        try {
            return XmlDecoding.decode(s, let.type());
        } catch (LiqError e) {
            throw e.locate(let.span());
        }
    }

    private Object evalString(Statement.Let let, Env env) {
        Object text = Values.base(ev.eval(let.value(), env));
        if (!(text instanceof String s)) {
            throw Errors.at(
                    let.span(), "invalid", "let eval needs a string, got " + Values.describe(text));
        }
        Path dir = Path.of(let.span().file()).toAbsolutePath().getParent();
        Expr.Sequence program;
        try {
            program =
                    Scripts.parse("eval", s, dir == null ? Path.of(".") : dir, List.of()).program();
        } catch (SyntaxError e) {
            throw Errors.at(let.span(), "eval", e.getMessage());
        }
        var refused = ev.evalCheck().refusal(program, let.type());
        if (refused.isPresent()) throw Errors.at(let.span(), "eval", refused.get());
        return ev.run(program, env).value();
    }
}
