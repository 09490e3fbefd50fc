package org.groovecast.net.rtmp;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A stream name as publish and play give it, {@code key?param=value&...}: the key names the stream
 * under its app, the parameters go to the script's auth hooks (a token, a password).
 */
record StreamKey(String name, Map<String, String> params) {
    static StreamKey parse(String raw) {
        int q = raw.indexOf('?');
        if (q < 0) return new StreamKey(raw, Map.of());
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : raw.substring(q + 1).split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            params.put(
                    decode(eq < 0 ? pair : pair.substring(0, eq)),
                    eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return new StreamKey(raw.substring(0, q), params);
    }

    /** A malformed escape is kept as written rather than refusing the stream over it. */
    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
