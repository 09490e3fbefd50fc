package org.groovecast.api;

import java.util.List;
import java.util.Map;

/**
 * The arguments of one operator call, already matched against its {@link OperatorSpec} and
 * converted: numbers are numbers, closures are {@link UserFunction}s, omitted parameters have their
 * defaults. Asking for a name the spec does not declare is a programming error.
 */
public interface Arguments {
    /** The operator's script name, for messages. */
    String operator();

    Source source(String name);

    List<Source> sources(String name);

    double number(String name);

    int integer(String name);

    String string(String name);

    boolean bool(String name);

    List<?> list(String name);

    Map<?, ?> map(String name);

    UserFunction function(String name);

    Encoder encoder(String name);

    /** The raw value, or {@code null} when omitted without default. */
    Object value(String name);

    /** Whether the script gave this parameter explicitly. */
    boolean given(String name);

    /**
     * The station's request protocols, through which operators that play requests turn URIs into
     * files (keep it: the operator resolves later, on the blocking pool). The default, for hosts
     * without protocols, refuses.
     */
    default RequestResolver requests() {
        throw new UnsupportedOperationException(operator() + "(): this host resolves no requests");
    }
}
