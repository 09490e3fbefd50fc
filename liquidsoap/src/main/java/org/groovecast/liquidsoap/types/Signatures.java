package org.groovecast.liquidsoap.types;

import java.util.Map;

/**
 * The builtins a script is checked against: every name the prelude makes visible, with its type
 * written as Liquidsoap prints types ({@code (?id : string?, source('a)) -> source('a)}, {@code
 * ('a, 'a) -> bool where 'a is an orderable type}). A field of a module is its dotted name ({@code
 * list.map}); a module without a type of its own is a record of its fields. The operators and the
 * functions the language's own constructs stand for ({@code +}, {@code ==}, {@code _[_]}...) have
 * default types in the checker, which a signature of the same name replaces.
 */
public interface Signatures {
    /** Dotted names and their types. */
    Map<String, String> types();

    /**
     * The type of a top-level name that {@link #types()} does not have, or null when it is unbound
     * (the default). For tools that check against an incomplete table.
     */
    default String unknown(String name) {
        return null;
    }

    /** Whether {@code %name} can encode here ({@code %ifencoder}, unsupported encoders). */
    default boolean hasEncoder(String name) {
        return Encoders.KNOWN.contains(name);
    }

    static Signatures of(Map<String, String> types) {
        Map<String, String> copy = Map.copyOf(types);
        return () -> copy;
    }

    /** No builtins but the language's own. */
    static Signatures none() {
        return Map::of;
    }
}
