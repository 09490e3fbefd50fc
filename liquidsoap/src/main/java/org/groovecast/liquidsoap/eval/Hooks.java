package org.groovecast.liquidsoap.eval;

import java.time.ZonedDateTime;
import java.util.Set;

/**
 * What the evaluator asks of where it runs: the fields of values it does not know itself (a
 * station's sources and their methods), which encoders exist ({@code %ifencoder}), and the time
 * (time predicates). The defaults are those of a script run without an engine.
 */
public interface Hooks {
    Hooks NONE = new Hooks() {};

    /** The field {@code name} of {@code value}, or {@link Env#MISSING}. */
    default Object field(Object value, String name) {
        return Env.MISSING;
    }

    /** The fields {@link #field} knows of {@code value}. */
    default Set<String> fieldNames(Object value) {
        return Set.of();
    }

    /** Whether {@code %ifencoder %name} holds. */
    default boolean encoderAvailable(String name) {
        return false;
    }

    default ZonedDateTime now() {
        return ZonedDateTime.now();
    }
}
