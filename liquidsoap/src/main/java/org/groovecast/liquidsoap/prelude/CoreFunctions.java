package org.groovecast.liquidsoap.prelude;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Args;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.ErrorValue;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Getters;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Ref;
import org.groovecast.liquidsoap.eval.Regexp;
import org.groovecast.liquidsoap.eval.Show;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * The language's own functions: printing, references, pairs, conversions between values, getters,
 * errors, nullable values and regular expressions.
 */
final class CoreFunctions {
    private CoreFunctions() {}

    static void register(Library lib, Platform platform) {
        lib.function(
                "print",
                "(?newline : bool, 'a) -> unit",
                "Prints a value on the standard output (a string as it is).",
                Map.of("newline", true),
                a -> {
                    Object v = a.get(1);
                    String text = Values.base(v) instanceof String s ? s : Show.value(v);
                    platform.print(a.bool(0) ? text + "\n" : text);
                    return Tuple.UNIT;
                });
        lib.function("ignore", "('a) -> unit", "Ignores its argument.", a -> Tuple.UNIT);
        lib.function(
                "fst", "('a * 'b) -> 'a", "The first element of a pair.", a -> a.tuple(0).get(0));
        lib.function(
                "snd", "('a * 'b) -> 'b", "The second element of a pair.", a -> a.tuple(0).get(1));
        lib.function(
                "ref",
                "('a) -> ref('a)",
                "A reference: read it as r(), set it with r := v.",
                a -> new Ref(a.get(0)));
        lib.function(
                "string",
                "(?fields : bool, ?print_binary : bool, 'a) -> string",
                "The representation of a value (a string as it is).",
                Map.of("fields", false, "print_binary", false),
                a -> {
                    Object v = a.get(2);
                    Object b = Values.base(v);
                    if (b instanceof String s) return s;
                    return a.bool(0) || Values.isUnit(v) ? Show.value(v) : Show.value(b);
                });
        conversions(lib);
        getters(lib);
        errors(lib);
        nulls(lib);
        lib.function(
                "regexp",
                "(?flags : [string], string) -> " + CommonTypes.REGEXP,
                "A regular expression (r/.../flags is the same).",
                Map.of("flags", List.of()),
                a -> {
                    StringBuilder flags = new StringBuilder();
                    for (Object f : a.list(0)) flags.append(Values.base(f));
                    return new Regexp(a.string(1), flags.toString());
                });
        lib.function("not", "(bool) -> bool", "Negation.", a -> !a.bool(0));
        lib.function(
                "shutdown",
                "(?code : int) -> unit",
                "Stops the script (the station).",
                Map.of("code", 0L),
                a -> {
                    platform.shutdown((int) a.integer(0));
                    return Tuple.UNIT;
                });
        lib.function(
                "exit",
                "(int) -> unit",
                "Stops the script with an exit code.",
                a -> {
                    platform.shutdown((int) a.integer(0));
                    throw new org.groovecast.liquidsoap.eval.Halt((int) a.integer(0));
                });
    }

    private static void conversions(Library lib) {
        lib.function(
                "int_of_float", "(float) -> int", "Truncates a float.", a -> (long) a.number(0));
        lib.function(
                "float_of_int",
                "(int) -> float",
                "An integer as a float.",
                a -> (double) a.integer(0));
        lib.function(
                "float",
                "('a) -> float where 'a is a number type",
                "A number (an integer, a float) as a float.",
                a -> toFloat(a.get(0), a));
        lib.function(
                "int",
                "('a, ?raise : bool) -> int where 'a is a number type",
                "A number (an integer, a float) as an integer.",
                Map.of("raise", false),
                a -> {
                    if (a.bool(1)
                            && Values.base(a.get(0)) instanceof Double d
                            && (d.isNaN() || d.isInfinite())) {
                        throw Errors.invalid("int: " + Show.floatText(d) + " is no integer");
                    }
                    return toInt(a.get(0), a);
                });
        lib.function(
                "float_of_string",
                "(?default : float?, string) -> float",
                "Parses a float; the default (or an error) when it is not one.",
                a -> {
                    try {
                        return parseFloat(a.string(1));
                    } catch (NumberFormatException e) {
                        if (a.get(0) != null) return a.number(0);
                        throw Errors.of(
                                "string",
                                "float_of_string: invalid float " + Show.quote(a.string(1)));
                    }
                });
        lib.function(
                "int_of_string",
                "(?default : int?, string) -> int",
                "Parses an integer; the default (or an error) when it is not one.",
                a -> {
                    try {
                        return parseInt(a.string(1));
                    } catch (NumberFormatException e) {
                        if (a.get(0) != null) return a.integer(0);
                        throw Errors.of(
                                "string",
                                "int_of_string: invalid integer " + Show.quote(a.string(1)));
                    }
                });
        lib.function(
                "bool_of_string",
                "(?default : bool?, string) -> bool",
                "Parses a boolean (true, false).",
                a -> {
                    String s = a.string(1).strip();
                    if (s.equals("true")) return true;
                    if (s.equals("false")) return false;
                    if (a.get(0) != null) return a.bool(0);
                    throw Errors.of("string", "bool_of_string: invalid boolean " + Show.quote(s));
                });
        lib.function(
                "string_of_float",
                "(?decimal_places : int, float) -> string",
                "A float as text.",
                a ->
                        a.given(0)
                                ? String.format(
                                        java.util.Locale.ROOT,
                                        "%." + a.integer(0) + "f",
                                        a.number(1))
                                : Show.floatText(a.number(1)));
        lib.function(
                "string_of_int",
                "(?digits : int, int) -> string",
                "An integer as text.",
                a ->
                        a.given(0)
                                ? String.format("%0" + a.integer(0) + "d", a.integer(1))
                                : Long.toString(a.integer(1)));
        lib.function(
                "string_of",
                "('a) -> string",
                "The representation of a value.",
                a -> Show.text(a.get(0)));
        lib.function(
                "bool",
                "('a) -> bool",
                "A value as a boolean.",
                a -> {
                    Object b = Values.base(a.get(0));
                    if (b instanceof Boolean x) return x;
                    if (b instanceof String s) return s.equals("true");
                    if (b instanceof Number n) return n.doubleValue() != 0;
                    return b != null;
                });
    }

    static double parseFloat(String s) {
        String t = s.strip().replace("_", "");
        switch (t) {
            case "inf", "infinity", "+inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "nan" -> {
                return Double.NaN;
            }
            default -> {}
        }
        if (t.startsWith("0x") || t.startsWith("-0x")) {
            boolean negative = t.startsWith("-");
            double v = Long.parseLong(t.substring(negative ? 3 : 2), 16);
            return negative ? -v : v;
        }
        if (t.endsWith(".")) t = t + "0";
        if (t.isEmpty() || t.chars().anyMatch(c -> Character.isLetter(c) && c != 'e' && c != 'E')) {
            throw new NumberFormatException(s);
        }
        return Double.parseDouble(t);
    }

    static long parseInt(String s) {
        String t = s.strip().replace("_", "");
        boolean negative = t.startsWith("-");
        if (negative || t.startsWith("+")) t = t.substring(1);
        long v;
        if (t.startsWith("0x") || t.startsWith("0X")) v = Long.parseLong(t.substring(2), 16);
        else if (t.startsWith("0o") || t.startsWith("0O")) v = Long.parseLong(t.substring(2), 8);
        else if (t.startsWith("0b") || t.startsWith("0B")) v = Long.parseLong(t.substring(2), 2);
        else v = Long.parseLong(t);
        return negative ? -v : v;
    }

    private static double toFloat(Object v, Args a) {
        Object b = Values.base(v);
        if (b instanceof Number n) return n.doubleValue();
        if (b instanceof String s) {
            try {
                return parseFloat(s);
            } catch (NumberFormatException e) {
                throw Errors.of("string", "float: invalid float " + Show.quote(s));
            }
        }
        if (b instanceof Boolean x) return x ? 1.0 : 0.0;
        throw a.wrong(0, "a number");
    }

    private static long toInt(Object v, Args a) {
        Object b = Values.base(v);
        if (b instanceof Long l) return l;
        if (b instanceof Double d) return d.longValue();
        if (b instanceof String s) {
            try {
                return parseInt(s);
            } catch (NumberFormatException e) {
                throw Errors.of("string", "int: invalid integer " + Show.quote(s));
            }
        }
        if (b instanceof Boolean x) return x ? 1 : 0;
        throw a.wrong(0, "a number");
    }

    private static void getters(Library lib) {
        lib.function("getter", "({'a}) -> {'a}", "A getter.", a -> a.get(0));
        lib.function("getter.get", "({'a}) -> 'a", "A getter's current value.", a -> a.getter(0));
        lib.function(
                "getter.function",
                "({'a}) -> () -> 'a",
                "A getter as a function.",
                a -> {
                    Object g = a.get(0);
                    if (Values.base(g) instanceof Fn f) return f;
                    return org.groovecast.liquidsoap.eval.Builtin.of("getter", List.of(), x -> g);
                });
        lib.function(
                "getter.is_constant",
                "({'a}) -> bool",
                "Whether a getter is a constant.",
                a -> !(Values.base(a.get(0)) instanceof Fn));
        lib.function(
                "getter.map",
                "(('a) -> 'b, {'a}) -> {'b}",
                "Applies a function to a getter's values.",
                a -> {
                    Fn f = a.fn(0);
                    Object g = a.get(1);
                    if (!(Values.base(g) instanceof Fn)) return f.call(g);
                    return org.groovecast.liquidsoap.eval.Builtin.of(
                            "getter.map", List.of(), x -> f.call(Getters.get(g)));
                });
    }

    /** An error with its kind, message and trace as fields, as a script reads it. */
    static Object withMethods(ErrorValue e) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("kind", e.kind());
        f.put("message", e.message());
        f.put("trace", e.trace());
        return Rec.with(e, f);
    }

    private static void errors(Library lib) {
        lib.function(
                "error.register",
                "(string) -> " + CommonTypes.ERROR,
                "A new kind of error.",
                a -> ErrorValue.kind(a.string(0)));
        lib.function(
                "error.kind",
                "(error) -> string",
                "An error's kind.",
                a -> ((ErrorValue) Values.base(a.get(0))).kind());
        lib.function(
                "error.message",
                "(error) -> string",
                "An error's message.",
                a -> ((ErrorValue) Values.base(a.get(0))).message());
        lib.function(
                "error.methods",
                "(error) -> " + CommonTypes.ERROR,
                "An error with its kind, message and trace as fields.",
                a -> withMethods((ErrorValue) Values.base(a.get(0))));
        lib.function(
                "error.catch",
                "(?errors : [error]?, body : () -> 'a, catch : ("
                        + CommonTypes.ERROR
                        + ") -> 'a, ?finally : () -> unit) -> 'a",
                "Runs body, handing the errors of the kinds listed (all when null) to catch.",
                a -> {
                    try {
                        return a.fn(1).call();
                    } catch (LiqError e) {
                        Object kinds = Values.base(a.get(0));
                        if (kinds instanceof List<?> l
                                && l.stream()
                                        .noneMatch(
                                                k ->
                                                        ((ErrorValue) Values.base(k))
                                                                .kind()
                                                                .equals(e.kind()))) {
                            throw e;
                        }
                        return a.fn(2).call(e.value());
                    } finally {
                        if (a.given(3)) a.fn(3).call();
                    }
                });
        for (String kind :
                List.of(
                        "assertion",
                        "clock",
                        "eval",
                        "file",
                        "file.cross_device",
                        "http",
                        "invalid",
                        "json",
                        "not_found",
                        "output",
                        "socket",
                        "string",
                        "failure")) {
            lib.value(
                    "error." + kind,
                    CommonTypes.ERROR,
                    ErrorValue.kind(kind),
                    "The kind of error " + kind + ".");
        }
    }

    private static void nulls(Library lib) {
        lib.function(
                "_null",
                "(?'a?) -> 'a?",
                "A value as a nullable one (null without).",
                a -> a.get(0));
        lib.function(
                "_null.defined",
                "('a?) -> bool",
                "Whether a nullable value is not null.",
                a -> !isNull(a.get(0)));
        lib.function(
                "_null.get",
                "(?default : 'a?, 'a?) -> 'a",
                "A nullable value's value, else the default, else error not_found.",
                a -> {
                    if (!isNull(a.get(1))) return a.get(1);
                    if (a.given(0) && !isNull(a.get(0))) return a.get(0);
                    throw Errors.notFound("no default value for null.get");
                });
        lib.function(
                "_null.case",
                "('a?, () -> 'b, ('a) -> 'b) -> 'b",
                "Case analysis on a nullable value.",
                a -> isNull(a.get(0)) ? a.fn(1).call() : a.fn(2).call(a.get(0)));
        lib.function(
                "_null.map",
                "(('a) -> 'b?, 'a?) -> 'b?",
                "Applies a function to a value that is not null.",
                a -> isNull(a.get(1)) ? null : a.fn(0).call(a.get(1)));
        lib.function(
                "_null.to_list",
                "('a?) -> ['a]",
                "A nullable value as a list of none or one element.",
                a -> isNull(a.get(0)) ? List.of() : List.of(a.get(0)));
        lib.function(
                "_null.default",
                "('a?, () -> 'a) -> 'a",
                "A nullable value, or the default's value when it is null.",
                a -> isNull(a.get(0)) ? a.fn(1).call() : a.get(0));
        lib.function(
                "_null.find",
                "(?default : 'b??, ('a) -> 'b?, ['a]) -> 'b?",
                "The first non-null image of the list's elements by the function, else the"
                        + " default (null).",
                a -> {
                    for (Object x : a.list(2)) {
                        Object y = a.fn(1).call(x);
                        if (!isNull(y)) return y;
                    }
                    return a.get(0);
                });
    }

    static boolean isNull(Object v) {
        return v == null;
    }

    /** Calls {@code f} with no argument. */
    static Object call(Fn f) {
        return f.apply(Call.of(null));
    }

    static List<Parameter> positional(int n) {
        return java.util.Collections.nCopies(n, Parameter.positional());
    }
}
