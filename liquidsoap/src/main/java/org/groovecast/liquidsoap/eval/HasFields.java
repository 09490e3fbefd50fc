package org.groovecast.liquidsoap.eval;

import java.util.Set;

/** A value whose fields the value itself answers: a reference's {@code set}, an error's kind. */
public interface HasFields {
    /** The field {@code name}, or {@link Env#MISSING}. */
    Object field(String name);

    Set<String> fieldNames();
}
