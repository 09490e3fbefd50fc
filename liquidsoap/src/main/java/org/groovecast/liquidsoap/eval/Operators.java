package org.groovecast.liquidsoap.eval;

import org.groovecast.liquidsoap.syntax.Span;

/**
 * The infix operators. Integers stay integers ({@code 7 / 2} is 3), floats stay floats; the type
 * checker refuses mixing the two, so without it a mixed operation is done in floats rather than
 * failing.
 */
final class Operators {
    private Operators() {}

    static Object infix(String op, Object a, Object b, Span at) {
        return switch (op) {
            case "==" -> equal(a, b);
            case "!=" -> !equal(a, b);
            case "<" -> compare(a, b, at) < 0;
            case "<=" -> compare(a, b, at) <= 0;
            case ">" -> compare(a, b, at) > 0;
            case ">=" -> compare(a, b, at) >= 0;
            case "^" -> Show.text(a) + Show.text(b);
            case "+.", "-.", "*.", "/." -> floats(op.substring(0, 1), number(a, at), number(b, at));
            case "+", "-", "*", "/", "mod", "%" -> arithmetic(op, a, b, at);
            default -> throw Errors.at(at, "invalid", "unknown operator " + op);
        };
    }

    /** Structural equality, but nan equals nothing, as floats compare. */
    private static boolean equal(Object a, Object b) {
        if (Values.base(a) instanceof Double x && Values.base(b) instanceof Double y)
            return x.doubleValue() == y.doubleValue();
        return Values.compare(a, b) == 0;
    }

    private static int compare(Object a, Object b, Span at) {
        try {
            return Values.compare(a, b);
        } catch (LiqError e) {
            throw e.locate(at);
        }
    }

    private static Object arithmetic(String op, Object a, Object b, Span at) {
        Object x = Values.base(a);
        Object y = Values.base(b);
        if (x instanceof Long i && y instanceof Long j) {
            return switch (op) {
                case "+" -> i + j;
                case "-" -> i - j;
                case "*" -> i * j;
                case "/" -> {
                    if (j == 0) throw Errors.at(at, "eval", "division by zero");
                    yield i / j;
                }
                default -> {
                    if (j == 0) throw Errors.at(at, "eval", "division by zero");
                    yield i % j;
                }
            };
        }
        return floats(op.equals("mod") ? "%" : op, number(a, at), number(b, at));
    }

    private static Object floats(String op, double x, double y) {
        return switch (op) {
            case "+" -> x + y;
            case "-" -> x - y;
            case "*" -> x * y;
            case "/" -> x / y;
            default -> x % y;
        };
    }

    static double number(Object v, Span at) {
        if (Values.base(v) instanceof Number n) return n.doubleValue();
        throw Errors.at(at, "invalid", "expected a number, got " + Values.describe(v));
    }

    static long integer(Object v, Span at) {
        Object b = Values.base(v);
        if (b instanceof Long l) return l;
        throw Errors.at(at, "invalid", "expected an integer, got " + Values.describe(v));
    }

    static Object negate(Object v, Span at) {
        Object b = Values.base(v);
        if (b instanceof Long l) return -l;
        if (b instanceof Double d) return -d;
        throw Errors.at(at, "invalid", "cannot negate " + Values.describe(v));
    }
}
