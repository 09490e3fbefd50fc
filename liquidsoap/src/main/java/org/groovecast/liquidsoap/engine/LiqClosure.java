package org.groovecast.liquidsoap.engine;

import groovy.lang.Closure;
import java.util.function.Function;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Parameter;

/**
 * A script's function handed to an operator. It is a Groovy closure on purpose: the engine wraps
 * closures in its {@code ClosureFunction}, the one place where a script function's failure is
 * logged once with its place and the clock goes on (a failure while the script loads fails the
 * load), so a Liquidsoap function fails exactly as a Groovy one does. The engine's arguments are
 * turned into Liquidsoap values (metadata into a list of pairs), the answer back into the engine's;
 * an error is thrown located at the script's line and column.
 */
final class LiqClosure extends Closure<Object> {
    private final transient Fn fn;
    private final transient Function<Object, Object> result;
    private final String file;

    LiqClosure(Fn fn, Function<Object, Object> result, String file) {
        super(null);
        this.fn = fn;
        this.result = result;
        this.file = file;
        int positional = 0;
        for (Parameter p : fn.parameters()) if (p.isPositional()) positional++;
        this.maximumNumberOfParameters = positional;
        this.parameterTypes = new Class<?>[positional];
        java.util.Arrays.fill(this.parameterTypes, Object.class);
    }

    Fn fn() {
        return fn;
    }

    @Override
    public Object call() {
        return call(new Object[0]);
    }

    @Override
    public Object call(Object arguments) {
        return call(new Object[] {arguments});
    }

    @Override
    public Object call(Object... args) {
        int takes = maximumNumberOfParameters;
        Object[] given = new Object[Math.min(takes, args.length)];
        for (int i = 0; i < given.length; i++) given[i] = EngineValues.toLiquidsoap(args[i]);
        try {
            return result.apply(fn.call(given));
        } catch (LiqError e) {
            throw Located.of(e, file);
        }
    }

    public Object doCall(Object... args) {
        return call(args);
    }
}
