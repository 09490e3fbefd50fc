package org.groovecast.liquidsoap.syntax;

import java.util.List;

/** What a definition or a parameter binds: {@code x}, {@code (a, b)}, {@code [x, ...r]}... */
public sealed interface Pattern extends Node
        permits Pattern.Var, Pattern.Tuple, Pattern.ListPattern, Pattern.RecordPattern {

    /**
     * A name, {@code _} to ignore. A path of more than one name only in {@code let a.b.c = e} and
     * {@code def a.b.f() ... end}, which define a field of an existing value.
     */
    record Var(Span span, List<String> path) implements Pattern {
        public String name() {
            return String.join(".", path);
        }
    }

    /** {@code (a, b, c)}; {@code ()} for unit. */
    record Tuple(Span span, List<Pattern> elements) implements Pattern {}

    /**
     * {@code [x, y, ...rest, z]}: the elements before the spread, the spread's name ({@code _} for
     * a bare {@code ...}) or null when there is none, and the elements after it.
     */
    record ListPattern(Span span, List<Pattern> before, Spread spread, List<Pattern> after)
            implements Pattern {}

    /**
     * {@code {a, b?, c = pattern}}, {@code v.{a, b}} (also binds the whole value, to {@code base}),
     * {@code {a, ...rest}} (binds the other fields to {@code spread}). {@code base} and {@code
     * spread} are null when not written.
     */
    record RecordPattern(Span span, Pattern base, List<FieldPattern> fields, Spread spread)
            implements Pattern {}

    /** {@code ...name} in a pattern; {@code _} when no name is written. */
    record Spread(Span span, String name) {}

    /**
     * A field of a record pattern: {@code a} binds field a; {@code a?} binds it, null when absent;
     * {@code a = p} matches it against p (then {@code pattern} is not null).
     */
    record FieldPattern(Span span, String name, boolean nullable, Pattern pattern) {}
}
