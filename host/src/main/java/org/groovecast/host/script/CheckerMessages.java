package org.groovecast.host.script;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Groovy's type checker's messages about values of unknown type ({@code def}, {@code
 * json.parse(...)}, an untyped closure parameter), said so that a station engineer knows what to
 * write: the checker names Java types and methods ({@code java.lang.Object#next()}), where the
 * script needs a declaration or a conversion.
 */
final class CheckerMessages {
    private static final Pattern UNARY =
            Pattern.compile(
                    "Cannot find matching method java\\.lang\\.Object#(next|previous|negative|positive|bitwiseNegate)\\(\\)\\..*");
    private static final String MULTIPLE_ASSIGNMENT =
            "Multiple assignments without list or tuple on the right-hand side";
    private static final String SPREAD = "Spread-dot operator can only be used on iterable types";
    private static final Pattern SHARED =
            Pattern.compile(
                    "^The closure shared variable \"(\\w+)\" has been assigned with various types.*java\\.lang\\.Object\\.");
    private static final Pattern SAM_ARITY =
            Pattern.compile("Wrong number of parameters for method target: \\w+\\((.*)\\)");
    private static final String OBJECT_ARGUMENT = "with arguments [java.lang.Object";

    /**
     * Groovy's own operator methods on a value whose type the checker knows but the operand does
     * not fit ({@code tokens << 4} on a {@code List<String>}): it names the method of its runtime
     * library it could not call.
     */
    private static final Pattern LIBRARY_CALL =
            Pattern.compile(
                    "Cannot call (?:<[^>]*> )?org\\.codehaus\\.groovy\\.runtime\\.\\w+#(\\w+)\\((.*)\\) with arguments \\[(.*)\\]");

    /** Package prefixes a station engineer need not read in a type. */
    private static final Pattern PACKAGE =
            Pattern.compile("\\b(?:java\\.(?:lang|util|io)|org\\.groovecast\\.api)\\.");

    /** What Groovy adds after an error it already reported on the same call. */
    static final String AFTERMATH = "Target method for method call expression hasn't been set";

    private CheckerMessages() {}

    static String reword(String message) {
        Matcher unary = UNARY.matcher(message);
        if (unary.matches()) {
            String op =
                    switch (unary.group(1)) {
                        case "next" -> "++";
                        case "previous" -> "--";
                        case "negative" -> "unary -";
                        case "positive" -> "unary +";
                        default -> "~";
                    };
            return op
                    + " needs a value whose type is known here (this one's is not: def, json.parse(...),"
                    + " an untyped closure parameter); declare it (int n = ...) or convert it ((n as int))";
        }
        Matcher sam = SAM_ARITY.matcher(message);
        if (sam.matches()) {
            // s.onTrack { a, b -> }: the callback is a Java functional interface.
            String[] types = sam.group(1).isBlank() ? new String[0] : sam.group(1).split(",\\s*");
            List<String> passed = new java.util.ArrayList<>();
            for (String t : types) passed.add("a " + t.substring(t.lastIndexOf('.') + 1));
            return "this function is called with "
                    + (passed.isEmpty()
                            ? "no arguments; write { -> ... }"
                            : passed.size()
                                    + " argument"
                                    + (passed.size() == 1 ? "" : "s")
                                    + " ("
                                    + String.join(", ", passed)
                                    + "); write { "
                                    + (passed.size() == 1 ? "m" : "a, b")
                                    + " -> ... }");
        }
        Matcher shared = SHARED.matcher(message);
        if (shared.find()) {
            String v = shared.group(1);
            return "the closure changes "
                    + v
                    + " with a value whose type is not known here (def, json.parse(...), an untyped"
                    + " closure parameter), so "
                    + v
                    + "'s type changes; convert the value: "
                    + v
                    + " += (x as int)";
        }
        if (message.startsWith(MULTIPLE_ASSIGNMENT)) {
            return "def (a, b) = ... needs a list written out on the right; for a value whose"
                    + " type is not known here, take its parts: def parts = ...; def a = parts[0]";
        }
        if (message.equals(SPREAD)) {
            return message
                    + "; for a value whose type is not known here, convert it: (xs as List)*.name";
        }
        Matcher library = LIBRARY_CALL.matcher(message);
        if (library.matches()) {
            return operator(library.group(1))
                    + " cannot take values of these types: "
                    + PACKAGE.matcher(library.group(3)).replaceAll("")
                    + "; convert one (x as int, x as String) or declare the collection's type"
                    + " (List<Object>, Map<String, Object>)";
        }
        if (message.startsWith("Cannot call ") && message.contains(OBJECT_ARGUMENT)) {
            return message
                    + "; an argument's type is not known here (def, json.parse(...), an untyped closure"
                    + " parameter): convert it (x as int, x as String) or declare its type";
        }
        return message;
    }

    /** How the script wrote the operator Groovy compiles to {@code method}. */
    private static String operator(String method) {
        return switch (method) {
            case "leftShift" -> "<<";
            case "rightShift" -> ">>";
            case "putAt" -> "x[i] = v";
            case "getAt" -> "x[i]";
            case "plus" -> "+";
            case "minus" -> "-";
            case "multiply" -> "*";
            case "div" -> "/";
            case "mod", "remainder" -> "%";
            case "power" -> "**";
            default -> method + "()";
        };
    }

    /** {@code errors} without the aftermath of an error already in it at the same line. */
    static List<ScriptError> withoutAftermath(List<ScriptError> errors) {
        return errors.stream()
                .filter(
                        e ->
                                !e.detail().equals(AFTERMATH)
                                        || errors.stream()
                                                .noneMatch(
                                                        o ->
                                                                o != e
                                                                        && o.line() == e.line()
                                                                        && o.file()
                                                                                .equals(e.file())))
                .toList();
    }
}
