package org.groovecast.liquidsoap.prelude;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.eval.Parameter;

/**
 * The parameters a function type declares, read off its Liquidsoap type string: {@code (?default :
 * 'a, 'b, [('b * 'a)]) -> 'a} declares an optional {@code ~default} and two positional ones. A
 * builtin's calling convention is thus its registered type, the one the type checker reads.
 */
final class Signature {
    private Signature() {}

    /** The parameters of a function type; null when {@code type} is not a function's. */
    static List<Parameter> parameters(String type) {
        String t = type.strip();
        if (!t.startsWith("(")) return null;
        int close = matching(t, 0);
        if (close < 0) throw new IllegalArgumentException("unbalanced type: " + type);
        String rest = t.substring(close + 1).strip();
        if (!rest.startsWith("->")) return null; // a tuple type
        List<Parameter> out = new ArrayList<>();
        for (String arg : split(t.substring(1, close))) {
            String a = arg.strip();
            if (a.isEmpty()) continue;
            boolean optional = a.startsWith("?");
            if (optional) a = a.substring(1).strip();
            int colon = labelColon(a);
            String label = colon < 0 ? "" : a.substring(0, colon).strip();
            out.add(new Parameter(label, optional, null));
        }
        return out;
    }

    /** The colon after a label ({@code label : type}), or -1 when the argument has no label. */
    private static int labelColon(String a) {
        int i = 0;
        while (i < a.length() && (Character.isLetterOrDigit(a.charAt(i)) || a.charAt(i) == '_'))
            i++;
        if (i == 0) return -1;
        int j = i;
        while (j < a.length() && a.charAt(j) == ' ') j++;
        return j < a.length() && a.charAt(j) == ':' ? j : -1;
    }

    private static int matching(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '[' || c == '{') depth++;
            else if (c == ')' || c == ']' || c == '}') {
                if (--depth == 0) return i;
            }
        }
        return -1;
    }

    private static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '[' || c == '{') depth++;
            else if (c == ')' || c == ']' || c == '}') depth--;
            else if (c == '-' && i + 1 < s.length() && s.charAt(i + 1) == '>') i++;
            else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
