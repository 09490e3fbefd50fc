package org.groovecast.liquidsoap.prelude;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.groovecast.liquidsoap.eval.Args;
import org.groovecast.liquidsoap.eval.Values;

/** Numbers: rounding, powers, logarithms, random numbers, and the constants. */
final class MathFunctions {
    private MathFunctions() {}

    static void register(Library lib) {
        lib.value("infinity", "float", Double.POSITIVE_INFINITY, "The float infinity.");
        lib.value("nan", "float", Double.NaN, "Not a number.");
        lib.value("pi", "float", Math.PI, "π.");
        lib.value("max_int", "int", Long.MAX_VALUE, "The largest integer.");
        lib.value("min_int", "int", Long.MIN_VALUE, "The smallest integer.");
        lib.value(
                "epsilon_float",
                "float",
                Math.ulp(1.0),
                "The difference between 1 and the float after it.");
        lib.function(
                "abs",
                "('a) -> 'a where 'a is a number type",
                "Absolute value (an integer or a float).",
                a ->
                        Values.base(a.get(0)) instanceof Long l
                                ? (Object) Math.abs(l)
                                : (Object) Math.abs(a.number(0)));
        lib.function(
                "sign",
                "(float) -> float",
                "-1 for a negative number, else 1 (of the argument's kind).",
                a ->
                        Values.base(a.get(0)) instanceof Long l
                                ? (Object) (l < 0 ? -1L : 1L)
                                : (Object) (a.number(0) < 0 ? -1.0 : 1.0));
        unary(lib, "floor", "Rounds down.", Math::floor);
        unary(lib, "ceil", "Rounds up.", Math::ceil);
        unary(
                lib,
                "round",
                "Rounds to the nearest integer (half away from zero).",
                x -> x < 0 ? -Math.floor(-x + 0.5) : Math.floor(x + 0.5));
        unary(lib, "sqrt", "Square root.", Math::sqrt);
        unary(lib, "exp", "Exponential.", Math::exp);
        unary(lib, "log", "Natural logarithm.", Math::log);
        unary(lib, "log10", "Base-10 logarithm.", Math::log10);
        unary(lib, "sin", "Sine.", Math::sin);
        unary(lib, "cos", "Cosine.", Math::cos);
        unary(lib, "tan", "Tangent.", Math::tan);
        unary(lib, "asin", "Arc sine.", Math::asin);
        unary(lib, "acos", "Arc cosine.", Math::acos);
        unary(lib, "atan", "Arc tangent.", Math::atan);
        unary(lib, "lin_of_dB", "A gain in dB as a linear factor.", x -> Math.pow(10, x / 20));
        unary(lib, "dB_of_lin", "A linear factor as a gain in dB.", x -> 20 * Math.log10(x));
        lib.function(
                "pow",
                "('a, 'a) -> 'a where 'a is a number type",
                "Power.",
                a ->
                        Values.base(a.get(0)) instanceof Long b
                                        && Values.base(a.get(1)) instanceof Long e
                                        && e >= 0
                                ? (Object) (long) Math.pow(b, e)
                                : (Object) Math.pow(a.number(0), a.number(1)));
        lib.function(
                "max",
                "('a, 'a) -> 'a where 'a is an orderable type",
                "The larger of two values.",
                a -> Values.compare(a.get(0), a.get(1)) >= 0 ? a.get(0) : a.get(1));
        lib.function(
                "min",
                "('a, 'a) -> 'a where 'a is an orderable type",
                "The smaller of two values.",
                a -> Values.compare(a.get(0), a.get(1)) <= 0 ? a.get(0) : a.get(1));
        lib.function(
                "float.is_nan",
                "(float) -> bool",
                "Whether a float is not a number.",
                a -> Double.isNaN(a.number(0)));
        lib.function(
                "float.is_infinite",
                "(float) -> bool",
                "Whether a float is infinite.",
                a -> Double.isInfinite(a.number(0)));
        lib.function(
                "float.is_finite",
                "(float) -> bool",
                "Whether a float is finite.",
                a -> Double.isFinite(a.number(0)));
        lib.function(
                "random.float",
                "(?min : float, ?max : float) -> float",
                "A random float in [min, max).",
                Map.of("min", 0.0, "max", 1.0),
                a ->
                        a.number(0)
                                + ThreadLocalRandom.current().nextDouble()
                                        * (a.number(1) - a.number(0)));
        lib.function(
                "random.int",
                "(?min : int, ?max : int) -> int",
                "A random integer in [min, max).",
                Map.of("min", 0L, "max", (long) Integer.MAX_VALUE),
                a ->
                        a.integer(0)
                                + (long)
                                        (ThreadLocalRandom.current().nextDouble()
                                                * (a.integer(1) - a.integer(0))));
        lib.function(
                "random.bool",
                "() -> bool",
                "A random boolean.",
                a -> ThreadLocalRandom.current().nextBoolean());
    }

    private interface Op {
        double apply(double x);
    }

    private static void unary(Library lib, String name, String doc, Op op) {
        lib.function(name, "(float) -> float", doc, (Args a) -> op.apply(a.number(0)));
    }
}
