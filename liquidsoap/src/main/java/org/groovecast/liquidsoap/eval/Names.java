package org.groovecast.liquidsoap.eval;

import java.util.Collection;

/** "Did you mean" hints: the closest known name, when one is close. */
public final class Names {
    private Names() {}

    /** {@code "; did you mean x?"}, or {@code ""} when nothing is close to {@code name}. */
    public static String didYouMean(String name, Collection<String> known) {
        String best = closest(name, known);
        return best == null ? "" : "; did you mean " + best + "?";
    }

    public static String closest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        // a name of one or two letters is close to every other short one: no hint for those
        int limit = Math.min(Math.max(2, name.length() / 3), name.length() - 2);
        for (String k : known) {
            if (k.equals(name) || Math.abs(k.length() - name.length()) > limit) continue;
            int d = distance(name, k);
            if (d <= limit && d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
