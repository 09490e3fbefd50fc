package org.groovecast.liquidsoap.eval;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Values as Liquidsoap prints them ({@code print}, {@code string(v)}, {@code "#{v}"} of a non
 * string): {@code 1.0}, {@code "a"} quoted inside structures, {@code [1, 2]}, {@code (1, "a")},
 * {@code {a=1, b="x"}}, {@code "f.mp3".{duration=3.0}}, {@code null}, {@code <fun>}.
 */
public final class Show {
    private Show() {}

    /** How {@code "#{v}"} and {@code ^} show a value: a string as it is, anything else printed. */
    public static String text(Object v) {
        Object b = Values.base(v);
        if (b instanceof String s) return s;
        return Values.isUnit(v) ? value(v) : value(b);
    }

    public static String value(Object v) {
        StringBuilder out = new StringBuilder();
        append(out, v);
        return out.toString();
    }

    private static void append(StringBuilder out, Object v) {
        if (v instanceof Rec r) {
            boolean unit = r.base() instanceof Tuple t && t.size() == 0;
            if (!unit) {
                append(out, r.base());
                out.append('.');
            }
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : new TreeMap<>(r.fields()).entrySet()) {
                if (!first) out.append(", ");
                first = false;
                out.append(e.getKey()).append('=');
                append(out, e.getValue());
            }
            out.append('}');
            return;
        }
        switch (v) {
            case null -> out.append("null");
            case String s -> out.append(quote(s));
            case Long l -> out.append(l);
            case Double d -> out.append(floatText(d));
            case Boolean b -> out.append(b);
            case Tuple t -> {
                out.append('(');
                for (int i = 0; i < t.size(); i++) {
                    if (i > 0) out.append(", ");
                    append(out, t.get(i));
                }
                out.append(')');
            }
            case List<?> l -> {
                out.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) out.append(", ");
                    append(out, l.get(i));
                }
                out.append(']');
            }
            case Fn f -> out.append(f);
            default -> out.append(v);
        }
    }

    /**
     * A float as Liquidsoap writes it: twelve significant digits, always with a dot ({@code 1.0},
     * {@code 0.3}, {@code 1e+20}), {@code inf}, {@code -inf}, {@code nan}.
     */
    public static String floatText(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        String s = g12(d);
        if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('n') < 0) s = s + ".";
        if (s.endsWith(".")) s = s + "0";
        return s;
    }

    /** C's {@code %.12g}. */
    private static String g12(double d) {
        if (d == 0) return (1 / d < 0) ? "-0" : "0";
        BigDecimal bd = new BigDecimal(d).round(new java.math.MathContext(12));
        int exponent = bd.precision() - bd.scale() - 1;
        if (exponent < -4 || exponent >= 12) {
            String digits = bd.unscaledValue().abs().toString();
            digits = stripZeros(digits);
            StringBuilder s = new StringBuilder();
            if (bd.signum() < 0) s.append('-');
            s.append(digits.charAt(0));
            if (digits.length() > 1) s.append('.').append(digits, 1, digits.length());
            s.append('e').append(exponent < 0 ? '-' : '+');
            int e = Math.abs(exponent);
            if (e < 10) s.append('0');
            s.append(e);
            return s.toString();
        }
        String plain = bd.toPlainString();
        if (plain.indexOf('.') >= 0) {
            plain = plain.replaceAll("0+$", "");
            if (plain.endsWith(".")) plain = plain.substring(0, plain.length() - 1);
        }
        return plain;
    }

    private static String stripZeros(String digits) {
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') end--;
        return digits.substring(0, end);
    }

    /** A string between double quotes, escaped as Liquidsoap prints it. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\b' -> out.append("\\b");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                default -> {
                    if (c < 0x20 || c == 0x7f) out.append(String.format("\\u%04X", (int) c));
                    else out.append(c);
                }
            }
        }
        return out.append('"').toString();
    }
}
