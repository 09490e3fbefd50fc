package org.groovecast.net.control;

import java.util.Locale;
import java.util.function.DoubleSupplier;

/**
 * A variable that the control interface may change while the station runs, made by {@code
 * interactive.float('volume', 1.0)}, {@code interactive.bool(...)} or {@code
 * interactive.string(...)}. Scripts read its current value as {@code vol.value}, in functions that
 * run as the stream plays ({@code amplify({ -> vol.value }, s)}); a float one is also a {@link
 * DoubleSupplier}, so {@code amplify(vol, s)} follows it too. Values are read and written from any
 * thread.
 */
public abstract sealed class Interactive
        permits Interactive.FloatVar, Interactive.BoolVar, Interactive.StringVar {
    private final String name;

    Interactive(String name) {
        this.name = name;
    }

    public final String name() {
        return name;
    }

    /** The type as {@code var.list} shows it: {@code float}, {@code bool} or {@code string}. */
    public abstract String type();

    /** The current value: {@code vol.value} in scripts. */
    public abstract Object getValue();

    /**
     * Sets the value from a script: {@code vol.value = 0.5}; throws for a value of the wrong type.
     */
    public abstract void setValue(Object value);

    /**
     * Sets the value from control text ({@code var.set volume 0.5}); throws when it does not parse.
     */
    public abstract void set(String text);

    @Override
    public String toString() {
        return String.valueOf(getValue());
    }

    /** A number, kept between {@code min} and {@code max}. */
    public static final class FloatVar extends Interactive implements DoubleSupplier {
        private final double min;
        private final double max;
        private volatile double value;

        FloatVar(String name, double value, double min, double max) {
            super(name);
            if (min > max)
                throw new IllegalArgumentException("min " + min + " is above max " + max);
            this.min = min;
            this.max = max;
            this.value = check(value);
        }

        @Override
        public String type() {
            return "float";
        }

        @Override
        public Double getValue() {
            return value;
        }

        @Override
        public double getAsDouble() {
            return value;
        }

        @Override
        public void setValue(Object v) {
            if (!(v instanceof Number n))
                throw new IllegalArgumentException(name() + " expects a number, got " + v);
            value = check(n.doubleValue());
        }

        @Override
        public void set(String text) {
            double d;
            try {
                d = Double.parseDouble(text.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        name() + " expects a number, got \"" + text + "\"");
            }
            value = check(d);
        }

        private double check(double d) {
            if (!Double.isFinite(d))
                throw new IllegalArgumentException(name() + " expects a finite number, got " + d);
            if (d < min || d > max) {
                throw new IllegalArgumentException(
                        name() + " must be between " + min + " and " + max + ", got " + d);
            }
            return d;
        }
    }

    /** A boolean: {@code true} or {@code false} ({@code on}/{@code off} also read). */
    public static final class BoolVar extends Interactive {
        private volatile boolean value;

        BoolVar(String name, boolean value) {
            super(name);
            this.value = value;
        }

        @Override
        public String type() {
            return "bool";
        }

        @Override
        public Boolean getValue() {
            return value;
        }

        @Override
        public void setValue(Object v) {
            if (!(v instanceof Boolean b))
                throw new IllegalArgumentException(name() + " expects true or false, got " + v);
            value = b;
        }

        @Override
        public void set(String text) {
            value =
                    switch (text.strip().toLowerCase(Locale.ROOT)) {
                        case "true", "on" -> true;
                        case "false", "off" -> false;
                        default ->
                                throw new IllegalArgumentException(
                                        name() + " expects true or false, got \"" + text + "\"");
                    };
        }
    }

    /** A string: the whole rest of the {@code var.set} line. */
    public static final class StringVar extends Interactive {
        private volatile String value;

        StringVar(String name, String value) {
            super(name);
            this.value = value;
        }

        @Override
        public String type() {
            return "string";
        }

        @Override
        public String getValue() {
            return value;
        }

        @Override
        public void setValue(Object v) {
            if (v == null)
                throw new IllegalArgumentException(name() + " expects a string, got null");
            value = v.toString();
        }

        @Override
        public void set(String text) {
            value = text;
        }
    }
}
