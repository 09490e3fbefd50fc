package org.groovecast.net.harbor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A script endpoint: a method and a path pattern whose {@code :name} segments capture parameters
 * ({@code /api/:id}); a pattern ending in {@code *} matches everything under it.
 */
public record Route(String method, String pattern, Function<HttpRequest, HttpReply> handler) {
    /** The captured parameters when {@code path} matches, else null. */
    Map<String, String> match(String path) {
        String[] want = pattern.split("/", -1);
        String[] got = path.split("/", -1);
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < want.length; i++) {
            if (want[i].equals("*") && i == want.length - 1) {
                params.put("*", String.join("/", java.util.Arrays.copyOfRange(got, Math.min(i, got.length), got.length)));
                return params;
            }
            if (i >= got.length) return null;
            if (want[i].startsWith(":")) {
                if (got[i].isEmpty()) return null;
                params.put(want[i].substring(1), got[i]);
            } else if (!want[i].equals(got[i])) {
                return null;
            }
        }
        return want.length == got.length ? params : null;
    }
}
