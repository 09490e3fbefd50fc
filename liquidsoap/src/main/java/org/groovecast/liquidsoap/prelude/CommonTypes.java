package org.groovecast.liquidsoap.prelude;

/**
 * Types several registrations share, in Liquidsoap's type syntax, as Liquidsoap 2.4.5 has them: an
 * error with its methods, a position of a stack trace, metadata, a regular expression.
 */
public final class CommonTypes {
    private CommonTypes() {}

    /** Liquidsoap's metadata: pairs of strings. */
    public static final String METADATA = "[(string * string)]";

    /** One place of an error's {@code trace}. */
    public static final String POSITION =
            "{filename : string, lstart : int, lstop : int, cstart : int, cstop : int, to_string"
                    + " : (?prefix : string) -> string}";

    /** An error, as {@code error.register} answers it and {@code catch} gets it. */
    public static final String ERROR =
            "error.{kind : string, message : string, trace : [" + POSITION + "]}";

    /** A regular expression ({@code r/.../} and {@code regexp(...)}) with its methods. */
    public static final String REGEXP =
            "regexp.{test : (string) -> bool, replace : ((string) -> string, string) -> string,"
                    + " split : (string) -> [string], exec : (string) -> [(int * string)].{groups"
                    + " : [(string * string)]}}";
}
