package org.groovecast.liquidsoap.eval;

import java.util.List;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Pattern;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * A function the script wrote: {@code def f(x) = ... end}, {@code fun (x) -> ...}, {@code { ... }}.
 * It keeps the scope it was made in; a recursive one ({@code def rec}) is in its own scope.
 */
public final class Closure extends Fn {
    private final Evaluator evaluator;
    private final String name;
    private final List<Parameter> parameters;
    private final List<Pattern> patterns;
    private final Expr body;
    private final Span span;
    private final boolean getter;
    private Env env;

    Closure(
            Evaluator evaluator,
            String name,
            List<Parameter> parameters,
            List<Pattern> patterns,
            Expr body,
            Env env,
            Span span,
            boolean getter) {
        this.evaluator = evaluator;
        this.name = name;
        this.parameters = List.copyOf(parameters);
        this.patterns = List.copyOf(patterns);
        this.body = body;
        this.env = env;
        this.span = span;
        this.getter = getter;
    }

    /** Makes the closure see itself under its name: {@code def rec}. */
    void recursive(Env withSelf) {
        this.env = withSelf;
    }

    @Override
    public String name() {
        return name == null ? "the function at " + span : name;
    }

    /** Where the function was written. */
    public Span span() {
        return span;
    }

    /** The body, for the engine: a getter that is only a time predicate becomes a condition. */
    public Expr body() {
        return body;
    }

    /** Whether it was written {@code { ... }}. */
    public boolean isGetter() {
        return getter;
    }

    @Override
    public List<Parameter> parameters() {
        return parameters;
    }

    @Override
    protected Object invoke(Object[] bound, boolean[] given, Call call) {
        Env e = env;
        Span at = call == null || call.at() == null ? span : call.at();
        for (int i = 0; i < bound.length; i++) e = evaluator.bind(patterns.get(i), bound[i], e, at);
        return evaluator.eval(body, e);
    }
}
