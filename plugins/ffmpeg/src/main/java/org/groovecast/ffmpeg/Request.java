package org.groovecast.ffmpeg;

import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.api.Metadata;

/**
 * A track to play: where it is, and the metadata the script attached to it with Liquidsoap's
 * {@code annotate:key="value",key2="value2":uri} prefix (prefixes may nest; inner ones win).
 */
record Request(String uri, Metadata annotations) {
    private static final String PREFIX = "annotate:";

    static Request parse(String text) {
        Map<String, String> notes = new LinkedHashMap<>();
        String rest = text;
        while (rest.startsWith(PREFIX)) rest = parseAnnotations(rest, PREFIX.length(), notes);
        return new Request(rest, Metadata.of(notes));
    }

    /** Reads {@code k="v",k2=v2:} from {@code at}; returns what follows the colon. */
    private static String parseAnnotations(String s, int at, Map<String, String> into) {
        int i = at;
        while (i < s.length()) {
            int eq = s.indexOf('=', i);
            if (eq < 0) throw new IllegalArgumentException("annotate: expects key=\"value\" pairs, in " + s);
            String key = s.substring(i, eq).strip();
            i = eq + 1;
            StringBuilder value = new StringBuilder();
            if (i < s.length() && s.charAt(i) == '"') {
                i++;
                while (i < s.length() && s.charAt(i) != '"') {
                    char c = s.charAt(i++);
                    if (c == '\\' && i < s.length()) c = s.charAt(i++);
                    value.append(c);
                }
                if (i >= s.length()) throw new IllegalArgumentException("annotate: unterminated quote in " + s);
                i++;
            } else {
                while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != ':') value.append(s.charAt(i++));
            }
            into.put(key, value.toString());
            if (i >= s.length()) throw new IllegalArgumentException("annotate: missing ':' before the uri in " + s);
            char sep = s.charAt(i++);
            if (sep == ':') return s.substring(i);
            if (sep != ',') throw new IllegalArgumentException("annotate: expected ',' or ':' at " + (i - 1) + " in " + s);
        }
        throw new IllegalArgumentException("annotate: missing ':' before the uri in " + s);
    }

    /** Seconds to skip at the start ({@code liq_cue_in}), or 0. */
    double cueIn() {
        return seconds("liq_cue_in", 0);
    }

    /** Where to end the track in seconds from the file start ({@code liq_cue_out}), or -1. */
    double cueOut() {
        return seconds("liq_cue_out", -1);
    }

    private double seconds(String key, double absent) {
        String v = annotations.get(key);
        if (v == null) return absent;
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return absent;
        }
    }
}
