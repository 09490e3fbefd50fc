package org.groovecast.host.script;

import groovy.lang.Closure;
import org.groovecast.api.FailureEpisode;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A script closure as operators call it; the engine's own functions also ask how many arguments it
 * takes.
 *
 * <p>Every call the engine makes into the script's functions comes through here, so this is where
 * their failures stop (see {@link UserFunction}): whatever the closure throws, short of the JVM
 * running out of memory, is logged with the script's line, once per run of failures of this
 * function, and the call answers its failure value; the clock, pool or event loop that called goes
 * on. A call that fails while the script itself is loading fails the load instead, as any mistake
 * of the script's body does.
 */
public final class ClosureFunction implements UserFunction {
    private static final Logger log = LoggerFactory.getLogger(ClosureFunction.class);

    private final Closure<?> closure;

    /**
     * Where the script handed the function to the engine (the line of the operator call), the place
     * to report a failure that has no line of the script in it; null when unknown.
     */
    private final ScriptLine handedOver;

    private final FailureEpisode episode = new FailureEpisode();

    /**
     * A closure as the engine calls it, for a front end that hands its script's functions to the
     * engine's own API (a source's {@code onMetadata}) rather than through an operator call, which
     * wraps them itself: failures then read and count the same.
     */
    public static UserFunction of(Closure<?> closure) {
        return new ClosureFunction(closure);
    }

    ClosureFunction(Closure<?> closure) {
        this.closure = closure;
        ScriptFiles files = ScriptFailure.filesOf(closure);
        this.handedOver = files == null ? null : ScriptLocation.current(files).orElse(null);
    }

    /** The function's answer, or null where it failed. */
    @Override
    public Object call(Object... args) {
        return callOr(null, args);
    }

    /** The function's answer as a script boolean, false where it failed. */
    @Override
    public boolean test(Object... args) {
        Object r = callOr(Boolean.FALSE, args);
        return r instanceof Boolean b ? b : r != null;
    }

    @Override
    public Object callOr(Object failed, Object... args) {
        Object r;
        try {
            r = closure.call(args);
        } catch (Throwable t) {
            if (t instanceof OutOfMemoryError || ScriptRuntime.CURRENT.isBound())
                throw ClosureFunction.<RuntimeException>rethrow(t);
            failed(t);
            return failed;
        }
        episode.succeeded();
        return r;
    }

    /**
     * Calls the function and lets its failure reach the caller, for a caller that reports it
     * itself, as part of its own answer (a request protocol's "failed at radio.groovy:12: ..."):
     * what is not a RuntimeException comes wrapped in a ScriptException saying what it was.
     */
    public Object callRaising(Object... args) {
        try {
            return closure.call(args);
        } catch (RuntimeException | OutOfMemoryError e) {
            throw e;
        } catch (Throwable t) {
            if (t instanceof InterruptedException) Thread.currentThread().interrupt();
            throw new ScriptException(ScriptFailure.what(t, closure), t);
        }
    }

    private void failed(Throwable t) {
        if (t instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
            // Abandoned by the engine (a time limit, the station's stop), not the script's fault.
            Thread.currentThread().interrupt();
            return;
        }
        long unlogged = episode.failed();
        if (unlogged < 0) return;
        log.error(
                "a script function failed, the station goes on: {}{}",
                ScriptFailure.describe(closure, t, handedOver),
                FailureEpisode.heldBack(unlogged));
    }

    Closure<?> closure() {
        return closure;
    }

    /**
     * The most arguments the closure declares ({@code { it }} and {@code { a -> }} take 1, {@code {
     * -> }} 0).
     */
    public int parameters() {
        return closure.getMaximumNumberOfParameters();
    }

    /** How many arguments {@code f} takes, or {@code fallback} when it is not a script closure. */
    public static int parameters(UserFunction f, int fallback) {
        return f instanceof ClosureFunction c ? c.parameters() : fallback;
    }

    /** Throws {@code t} as it is, checked or not: the script's body may throw anything. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E rethrow(Throwable t) throws E {
        throw (E) t;
    }
}
