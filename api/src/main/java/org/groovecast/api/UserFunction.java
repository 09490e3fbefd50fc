package org.groovecast.api;

/**
 * A function from the station script (a Groovy closure), as operators see it. Calling it runs user
 * code: keep it off hot paths where possible, and collect what it registers with {@link
 * CallbackScope} when it is called repeatedly.
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
}
