package org.groovecast.liquidsoap.types;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The types of what the language's constructs stand for, as Liquidsoap's builtins of the same names
 * have them: operators ({@code 1 + 2} applies {@code +}), {@code l[k]} ({@code _[_]}), {@code h ::
 * t} ({@code _::_}), {@code null(x)} and {@code null.default} ({@code _null}), time predicates
 * ({@code time_in_mod}) and regular expressions ({@code regexp}).
 */
final class CoreSignatures {
    private CoreSignatures() {}

    static final Map<String, String> TYPES = types();

    private static Map<String, String> types() {
        Map<String, String> t = new LinkedHashMap<>();
        String num = "('a, 'a) -> 'a where 'a is a number type";
        for (String op : new String[] {"+", "-", "*", "/", "mod", "pow"}) t.put(op, num);
        t.put("~-", "('a) -> 'a where 'a is a number type");
        String compare = "('a, 'a) -> bool where 'a is an orderable type";
        for (String op : new String[] {"==", "!=", "<", "<=", ">", ">="}) t.put(op, compare);
        t.put("not", "(bool) -> bool");
        t.put("and", "({bool}, {bool}) -> bool");
        t.put("or", "({bool}, {bool}) -> bool");
        t.put("^", "(string, string) -> string");
        t.put("_[_]", "([('a * string)], 'a) -> string where 'a is an orderable type");
        t.put("_::_", "('a, ['a]) -> ['a]");
        t.put("_null", "(?'a?) -> 'a?");
        t.put("_null.default", "('a?, () -> 'a) -> 'a");
        t.put("_null.case", "('a?, () -> 'b, ('a) -> 'b) -> 'b");
        t.put("time_in_mod", "(int, int, int) -> bool");
        t.put(
                "regexp",
                "(?flags : [string], string) -> regexp.{test : (string) -> bool, replace : ((string)"
                        + " -> string, string) -> string, split : (string) -> [string], exec :"
                        + " (string) -> [(int * string)].{groups : [(string * string)]}}");
        return t;
    }

    /**
     * The type of an error caught by {@code try ... catch}: Liquidsoap's, its trace a list of
     * positions ({@code lang_core.ml}'s {@code Position.t}).
     */
    static Type error() {
        return SignatureParser.parse(ERROR).type();
    }

    private static final String ERROR =
            "error.{kind : string, message : string, trace : [{filename : string, lstart : int,"
                    + " lstop : int, cstart : int, cstop : int, to_string : (?prefix : string) ->"
                    + " string}]}";
}
