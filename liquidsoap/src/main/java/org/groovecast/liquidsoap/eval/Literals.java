package org.groovecast.liquidsoap.eval;

import org.groovecast.liquidsoap.syntax.Expr;

/**
 * Number literals as written: {@code 0x1F}, {@code 0o17}, {@code 0b101}, {@code 1_000}, {@code .5}.
 */
final class Literals {
    private Literals() {}

    static Long integer(Expr.IntLit i) {
        String t = i.text().replace("_", "");
        boolean negative = t.startsWith("-");
        if (negative) t = t.substring(1);
        try {
            long v;
            if (t.startsWith("0x") || t.startsWith("0X"))
                v = Long.parseUnsignedLong(t.substring(2), 16);
            else if (t.startsWith("0o") || t.startsWith("0O"))
                v = Long.parseLong(t.substring(2), 8);
            else if (t.startsWith("0b") || t.startsWith("0B"))
                v = Long.parseLong(t.substring(2), 2);
            else v = Long.parseLong(t);
            return negative ? -v : v;
        } catch (NumberFormatException e) {
            throw Errors.at(i.span(), "invalid", "integer literal out of range: " + i.text());
        }
    }

    static Double floating(Expr.FloatLit f) {
        String t = f.text().replace("_", "");
        if (t.endsWith(".")) t = t + "0";
        if (t.startsWith(".")) t = "0" + t;
        if (t.startsWith("-.")) t = "-0" + t.substring(1);
        return Double.parseDouble(t);
    }
}
