package org.groovecast.liquidsoap.types;

import org.groovecast.liquidsoap.syntax.Expr;

/**
 * Which branch of {@code %ifdef}, {@code %ifencoder} and {@code %ifversion} a script takes, as
 * Liquidsoap decides it before typing: a name is defined when the script defined it above (with
 * {@code x = ...}, {@code let}, {@code def}) or it is a builtin; the version is Liquidsoap's 2.4.5.
 * Only the branch taken is checked (the other may use what does not exist here).
 */
final class Conditions {
    private Conditions() {}

    /** The version {@code %ifversion} compares with: the language this front end reads. */
    static final String VERSION = "2.4.5";

    static Expr.Sequence taken(Context cx, Expr.IfDef d) {
        boolean defined = cx.scope.definedPath(d.name()) != null || cx.builtins.has(d.name());
        return defined != d.negative() ? d.then() : d.otherwise();
    }

    static Expr.Sequence taken(Context cx, Expr.IfEncoder d) {
        boolean has = cx.builtins.hasEncoder(d.encoder());
        return has != d.negative() ? d.then() : d.otherwise();
    }

    static Expr.Sequence taken(Context cx, Expr.IfVersion d) {
        int c = compare(VERSION, d.version());
        boolean holds =
                switch (d.operator()) {
                    case "==" -> c == 0;
                    case ">=" -> c >= 0;
                    case "<=" -> c <= 0;
                    case ">" -> c > 0;
                    case "<" -> c < 0;
                    default -> false;
                };
        return holds ? d.then() : d.otherwise();
    }

    /** Versions compared number by number; a missing number counts as 0. */
    static int compare(String a, String b) {
        String[] x = a.split("[.+~-]");
        String[] y = b.split("[.+~-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int u = i < x.length ? number(x[i]) : 0;
            int v = i < y.length ? number(y[i]) : 0;
            if (u != v) return Integer.compare(u, v);
        }
        return 0;
    }

    private static int number(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
