package org.groovecast.api;

import org.slf4j.LoggerFactory;

/**
 * A function from the station script (a Groovy closure), as operators see it. Calling it runs user
 * code: keep it off hot paths where possible, and collect what it registers with {@link
 * CallbackScope} when it is called repeatedly.
 *
 * <p><b>Failures.</b> A script's function never throws at its caller once the station runs: what
 * its code throws (any exception or error, short of the JVM running out of memory) is logged by the
 * host with the script's {@code file:line}, once for a run of failures (see {@link
 * FailureEpisode}), and the call answers its failure value: {@link #call} null (a callback that did
 * not run), {@link #test} false, {@link #callOr} the value given. So a caller on a clock or an
 * event loop needs no try of its own; one for which null is a meaningful answer (a metadata
 * function's "drop it") asks {@link #callOr} for a value of its own. While the script itself is
 * loading, a failure still reaches the caller, so that it fails the load at its line.
 */
@FunctionalInterface
public interface UserFunction {
    Object call(Object... args);

    /**
     * Calls the function and reads its result as a script boolean ({@code null} and {@code false}
     * are false).
     */
    default boolean test(Object... args) {
        Object r = call(args);
        return r instanceof Boolean b ? b : r != null;
    }

    /**
     * Calls the function, answering {@code failed} where it fails (see the class comment). The
     * host's functions log the failure themselves; this default, for a function made elsewhere (a
     * plugin's test), logs what {@link #call} threw, every time.
     */
    default Object callOr(Object failed, Object... args) {
        try {
            return call(args);
        } catch (RuntimeException | Error e) {
            if (e instanceof OutOfMemoryError) throw e;
            LoggerFactory.getLogger(UserFunction.class)
                    .error("a function failed: {}", e.toString());
            return failed;
        }
    }
}
