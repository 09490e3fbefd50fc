package org.groovecast.host.script;

import java.util.List;

/**
 * The message for a function given where an operator calls it with a number of arguments it cannot
 * take, saying what to write: {@code onSelect is called with 1 argument (the selected source), but
 * this function takes none; write { a -> ... }}.
 */
final class FunctionArity {
    private FunctionArity() {}

    /**
     * @param param the parameter the function is given for
     * @param passed what the operator calls it with, one description per argument
     * @param takes how many arguments the function can take, {@code {min, max}}
     */
    static String mismatch(String param, List<String> passed, int[] takes) {
        int n = passed.size();
        String expected =
                n == 0
                        ? "no arguments"
                        : n
                                + " argument"
                                + (n == 1 ? "" : "s")
                                + " ("
                                + String.join(", ", passed)
                                + ")";
        String given =
                takes[0] == takes[1]
                        ? (takes[0] == 0 ? "none" : String.valueOf(takes[0]))
                        : takes[0] + " to " + takes[1];
        return param
                + " is called with "
                + expected
                + ", but this function takes "
                + given
                + "; write "
                + example(n);
    }

    private static String example(int n) {
        if (n == 0) return "{ -> ... }";
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) names.append(", ");
            names.append((char) ('a' + i));
        }
        return "{ " + names + " -> ... }";
    }
}
