package org.groovecast.host.script;

import org.codehaus.groovy.runtime.typehandling.DefaultTypeTransformation;

/**
 * Groovy's operators on values whose type the script does not say ({@code a + b}, {@code a < b},
 * {@code xs << x} of {@code def} values or untyped closure parameters), resolved when they run as
 * dynamic Groovy would: the static checker knows no method for them, and Groovy's static compiler
 * cannot compile the operator then. {@link OperatorChecker} points such operators here, as
 * extension methods of {@code Object}; compiled scripts call these, so they are public. Indexing is
 * {@link IndexedValue}'s.
 */
public final class DynamicOperators {
    private DynamicOperators() {}

    public static Object plus(Object self, Object other) {
        return DynamicCall.invoke(self, "plus", other);
    }

    public static Object minus(Object self, Object other) {
        return DynamicCall.invoke(self, "minus", other);
    }

    public static Object multiply(Object self, Object other) {
        return DynamicCall.invoke(self, "multiply", other);
    }

    public static Object div(Object self, Object other) {
        return DynamicCall.invoke(self, "div", other);
    }

    public static Object intdiv(Object self, Object other) {
        return DynamicCall.invoke(self, "intdiv", other);
    }

    public static Object mod(Object self, Object other) {
        return DynamicCall.invoke(self, "mod", other);
    }

    public static Object remainder(Object self, Object other) {
        return DynamicCall.invoke(self, "remainder", other);
    }

    public static Object power(Object self, Object other) {
        return DynamicCall.invoke(self, "power", other);
    }

    public static Object leftShift(Object self, Object other) {
        return DynamicCall.invoke(self, "leftShift", other);
    }

    public static Object rightShift(Object self, Object other) {
        return DynamicCall.invoke(self, "rightShift", other);
    }

    public static Object rightShiftUnsigned(Object self, Object other) {
        return DynamicCall.invoke(self, "rightShiftUnsigned", other);
    }

    public static Object and(Object self, Object other) {
        return DynamicCall.invoke(self, "and", other);
    }

    public static Object or(Object self, Object other) {
        return DynamicCall.invoke(self, "or", other);
    }

    public static Object xor(Object self, Object other) {
        return DynamicCall.invoke(self, "xor", other);
    }

    public static int compareTo(Object self, Object other) {
        return DefaultTypeTransformation.compareTo(self, other);
    }

    public static boolean isCase(Object self, Object other) {
        return DefaultTypeTransformation.castToBoolean(DynamicCall.invoke(self, "isCase", other));
    }
}
