package org.groovecast.liquidsoap.types;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.Warning;

/**
 * The state of one check, shared by its parts ({@link Inference}, {@link Definitions}, {@link
 * Applications}, {@link Invocations}): the names in scope, the current level (how many definitions
 * the checker is inside), the subtyping with its budget, the warnings, and the result types of
 * applications (for the value restriction).
 */
final class Context {
    final Subtyping subtyping = new Subtyping();
    final Scope scope;
    final Builtins builtins;
    final List<Warning> warnings;
    final Map<Expr, Type> applied = new IdentityHashMap<>();

    /** The types of the untyped {@code let json.parse x = s}, by the span of their let. */
    final Map<Span, Type> untypedJson = new LinkedHashMap<>();

    int level;

    /** The expression being checked, for an error that has no better place. */
    Span current;

    Inference inference;
    Definitions definitions;
    Applications applications;
    Invocations invocations;

    Context(Builtins builtins, Scope scope, List<Warning> warnings) {
        this.builtins = builtins;
        this.scope = scope;
        this.warnings = warnings;
        this.inference = new Inference(this);
        this.definitions = new Definitions(this);
        this.applications = new Applications(this);
        this.invocations = new Invocations(this);
    }

    TypeVar fresh() {
        return new TypeVar(level);
    }

    Type instantiate(Type.Scheme s) {
        return Generalization.instantiate(level, s);
    }

    /** {@code a <: b}, or a message at {@code at}: "this value has type a but it should be..." */
    void subtype(Span at, Type a, Type b) {
        try {
            subtyping.sub(a, b);
        } catch (Mismatch m) {
            throw new TypeError(at, Messages.mismatch(m, a, false));
        } catch (TooComplex e) {
            throw Messages.tooComplex(at);
        } catch (Constraint.Unsatisfied e) {
            throw new TypeError(
                    at, Messages.mismatch(new Mismatch(Repr.of(a), Repr.of(b)), a, false));
        }
    }

    /**
     * {@code b <: a}, said from a's side: "this value has type a but it should be a supertype of
     * b".
     */
    void supertype(Span at, Type a, Type b) {
        try {
            subtyping.sub(b, a);
        } catch (Mismatch m) {
            throw new TypeError(at, Messages.mismatch(m, a, true));
        } catch (TooComplex e) {
            throw Messages.tooComplex(at);
        } catch (Constraint.Unsatisfied e) {
            throw new TypeError(
                    at, Messages.mismatch(new Mismatch(Repr.of(b), Repr.of(a)), a, true));
        }
    }

    void warn(Span at, String message) {
        warnings.add(new Warning(at, message));
    }

    Type infer(Expr e) {
        return inference.infer(e);
    }
}
