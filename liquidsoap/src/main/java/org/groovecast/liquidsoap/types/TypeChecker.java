package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;
import org.groovecast.liquidsoap.syntax.Warning;

/**
 * Liquidsoap's type checker for a parsed script, before anything runs: it refuses what Liquidsoap
 * refuses, with Liquidsoap's message at the offending expression as one {@link TypeError} ({@code
 * station.liq:12:4: this value has type int but it should be a subtype of float}), and gives what
 * Liquidsoap only warns about as warnings. Inference is Hindley-Milner with Liquidsoap's subtyping
 * (records and methods, optional fields, nullable types, getters, labelled and optional arguments,
 * source content types) and value restriction.
 *
 * <pre>{@code
 * TypeChecker checker = TypeChecker.of(signatures);       // once: the builtins
 * Checked checked = checker.check(Scripts.parse(file));   // throws TypeError
 * }</pre>
 *
 * A prelude written in Liquidsoap is checked first and the script in what it leaves: {@code
 * checker.check(script, checker.check(prelude))}. A checker is immutable and may be shared; each
 * check works on its own copies of the types.
 */
public final class TypeChecker {
    private final Builtins.Index index;

    private TypeChecker(Signatures signatures) {
        this.index = new Builtins.Index(signatures);
    }

    public static TypeChecker of(Signatures signatures) {
        return new TypeChecker(signatures);
    }

    /** Checks a script against the builtins. */
    public Checked check(ParsedScript script) {
        return check(script.program(), null);
    }

    /** Checks a script in the scope {@code before} left (a prelude's definitions). */
    public Checked check(ParsedScript script, Checked before) {
        return check(script.program(), before);
    }

    /**
     * For tools measuring a large library: checks every top-level statement, going on after one
     * that fails (what it defines is then of any type), and gives every error with the result.
     * Liquidsoap stops at the first error; {@link #check} does too.
     */
    public Report checkEach(ParsedScript script, Checked before) {
        List<TypeError> errors = new ArrayList<>();
        Checked checked = run(script.program(), before, errors);
        return new Report(List.copyOf(errors), checked);
    }

    /** What {@link #checkEach} found. */
    public record Report(List<TypeError> errors, Checked checked) {}

    Checked check(Expr.Sequence program, Checked before) {
        return run(program, before, null);
    }

    /**
     * Checks the string a {@code let eval} evaluates, once the script that holds it is checked
     * ({@code before}): in the scope the script's top level left, the program's value a subtype of
     * {@code expected} when there is one (the {@code let}'s annotation), as Liquidsoap checks it.
     */
    public void checkEval(Expr.Sequence program, Checked before, TypeAnnotation expected) {
        Builtins builtins = new Builtins(index);
        Context cx = new Context(builtins, scope(builtins, before), new ArrayList<>());
        try {
            Type value = cx.inference.topLevel(program);
            if (expected != null) cx.subtype(program.span(), value, Annotations.of(expected));
        } catch (StackOverflowError e) {
            throw new TypeError(
                    where(cx, program), "this expression is nested too deeply to be checked");
        } catch (TooComplex e) {
            throw Messages.tooComplex(where(cx, program));
        }
    }

    private Checked run(Expr.Sequence program, Checked before, List<TypeError> errors) {
        Builtins builtins = new Builtins(index);
        Scope scope = scope(builtins, before);
        List<Warning> warnings = new ArrayList<>();
        Context cx = new Context(builtins, scope, warnings);
        try {
            if (errors == null) {
                cx.inference.topLevel(program);
            } else {
                cx.inference.topLevel(program, errors);
            }
        } catch (StackOverflowError e) {
            throw new TypeError(
                    where(cx, program), "this expression is nested too deeply to be checked");
        } catch (TooComplex e) {
            throw Messages.tooComplex(where(cx, program));
        }
        Map<String, Scope.Binding> names = new HashMap<>();
        if (before != null) names.putAll(before.names);
        names.putAll(scope.names());
        Map<String, Scope.Binding> paths = new HashMap<>();
        if (before != null) paths.putAll(before.paths);
        paths.putAll(scope.paths());
        Map<Span, TypeAnnotation> json = new LinkedHashMap<>();
        cx.untypedJson.forEach((at, t) -> json.put(at, JsonTypes.annotation(t, at)));
        return new Checked(warnings, names, paths, json);
    }

    /** The builtins, then what {@code before} defined (each name's type a copy of its own). */
    private static Scope scope(Builtins builtins, Checked before) {
        if (before == null) return new Scope(builtins::get);
        Generalization.Copier copier = new Generalization.Copier();
        Map<String, Scope.Binding> copied = new HashMap<>();
        Scope scope =
                new Scope(
                        name -> {
                            Scope.Binding b = before.names.get(name);
                            if (b == null) return builtins.get(name);
                            return copied.computeIfAbsent(
                                    name,
                                    n -> new Scope.Binding(copier.copy(b.scheme()), b.params()));
                        });
        for (var e : before.paths.entrySet()) {
            scope.definePath(e.getKey(), e.getValue().params());
        }
        return scope;
    }

    private static Span where(Context cx, Expr.Sequence program) {
        return cx.current != null ? cx.current : program.span();
    }

    /** A script checked: its warnings, and the names it defined (for what is checked after it). */
    public static final class Checked {
        private final List<Warning> warnings;
        final Map<String, Scope.Binding> names;
        final Map<String, Scope.Binding> paths;
        private final Map<Span, TypeAnnotation> jsonTypes;

        Checked(
                List<Warning> warnings,
                Map<String, Scope.Binding> names,
                Map<String, Scope.Binding> paths,
                Map<Span, TypeAnnotation> jsonTypes) {
            this.warnings = List.copyOf(warnings);
            this.names = Map.copyOf(names);
            this.paths = Map.copyOf(paths);
            this.jsonTypes = Map.copyOf(jsonTypes);
        }

        /**
         * The type inferred for each {@code let json.parse x = s} written without one (by the span
         * of its let), as the annotation the evaluation reads the JSON with.
         */
        public Map<Span, TypeAnnotation> jsonTypes() {
            return jsonTypes;
        }

        /** What Liquidsoap would warn about: values dropped, sources left unused. */
        public List<Warning> warnings() {
            return warnings;
        }

        /** The type of a name the script defined at its top level, as Liquidsoap prints it. */
        public String typeOf(String name) {
            Scope.Binding b = names.get(name);
            return b == null ? null : TypePrinter.print(b.scheme());
        }
    }
}
