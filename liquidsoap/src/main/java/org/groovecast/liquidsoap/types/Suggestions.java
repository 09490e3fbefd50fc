package org.groovecast.liquidsoap.types;

/** The name nearest to a misspelt one, for "did you mean ...?". */
final class Suggestions {
    private Suggestions() {}

    /** The closest of {@code candidates} within a few edits of {@code name}, or null. */
    static String nearest(String name, Iterable<String> candidates) {
        // a name of one or two letters is near anything: no guess
        if (name.length() < 3) return null;
        int limit = Math.max(1, Math.min(3, name.length() / 3));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            if (c.equals(name) || c.startsWith("_")) continue;
            if (Math.abs(c.length() - name.length()) > limit) continue;
            int d = distance(name, c, limit);
            if (d > limit) continue;
            if (d < bestDistance || (d == bestDistance && c.compareTo(best) < 0)) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance, with transpositions counting one; stops past {@code limit}. */
    static int distance(String a, String b, int limit) {
        int n = a.length();
        int m = b.length();
        int[] prev2 = new int[m + 1];
        int[] prev = new int[m + 1];
        int[] cur = new int[m + 1];
        for (int j = 0; j <= m; j++) prev[j] = j;
        for (int i = 1; i <= n; i++) {
            cur[0] = i;
            int rowMin = cur[0];
            for (int j = 1; j <= m; j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
                if (i > 1
                        && j > 1
                        && a.charAt(i - 1) == b.charAt(j - 2)
                        && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, prev2[j - 2] + 1);
                }
                cur[j] = v;
                rowMin = Math.min(rowMin, v);
            }
            if (rowMin > limit) return limit + 1;
            int[] t = prev2;
            prev2 = prev;
            prev = cur;
            cur = t;
        }
        return prev[m];
    }
}
