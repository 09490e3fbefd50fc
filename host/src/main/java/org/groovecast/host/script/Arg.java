package org.groovecast.host.script;

import java.util.List;
import java.util.Map;
import org.groovecast.api.ValueType;

/**
 * One argument of an operator call, as far as it is known: a value at run time, an expression and
 * its inferred type at compile time. {@link CallMatcher} matches both with one algorithm, so the
 * checks a script gets before it starts are the ones it would get at run time.
 */
interface Arg {
    /** A closure or function. */
    boolean isFunction();

    /** True or false when known; {@code null} when only run time can tell (a dynamic value). */
    Boolean fits(ValueType type);

    /** How a message names this argument: {@code String "music"}. */
    String describe();

    /** The elements, for a list whose elements are known; otherwise {@code null}. */
    List<? extends Arg> elements();

    /** The entries of a map literal or value with string keys; otherwise {@code null}. */
    Map<String, ? extends Arg> entries();

    /** The number, when known (a literal, or a value at run time); otherwise {@code null}. */
    Double number();

    /**
     * The value as far as it is known, for a parameter's {@link
     * org.groovecast.api.OperatorSpec.Builder#check}: a value at run time; at compile time a
     * literal, a list of known values, or a map literal's entries whose values are known; otherwise
     * {@code null}.
     */
    Object known();

    /**
     * For a function, how many arguments it can be called with, {@code {min, max}} (max {@link
     * Integer#MAX_VALUE} for varargs); null when not known.
     */
    int[] takes();
}
