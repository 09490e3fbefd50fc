package org.groovecast.liquidsoap.prelude;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * The metadata of an {@code annotate:} URI: {@code title="A, B",liq_cue_in=3.2:/music/a.mp3} is
 * ({@code [("title", "A, B"), ("liq_cue_in", "3.2")]}, {@code "/music/a.mp3"}). A value is quoted
 * (with backslash escapes) or runs to the next comma or colon.
 */
final class Annotations {
    private Annotations() {}

    static Tuple parse(String s) {
        List<Object> metadata = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            int eq = s.indexOf('=', i);
            int colon = s.indexOf(':', i);
            if (eq < 0 || colon >= 0 && colon < eq) break;
            String key = s.substring(i, eq).strip();
            i = eq + 1;
            StringBuilder value = new StringBuilder();
            if (i < s.length() && s.charAt(i) == '"') {
                i++;
                while (i < s.length() && s.charAt(i) != '"') {
                    char c = s.charAt(i);
                    if (c == '\\' && i + 1 < s.length()) {
                        c = s.charAt(++i);
                    }
                    value.append(c);
                    i++;
                }
                if (i >= s.length())
                    throw Errors.of("string", "annotate: unterminated value of " + key);
                i++;
            } else {
                while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != ':')
                    value.append(s.charAt(i++));
            }
            metadata.add(Tuple.of(key, value.toString()));
            if (i < s.length() && s.charAt(i) == ',') {
                i++;
                continue;
            }
            if (i < s.length() && s.charAt(i) == ':') {
                i++;
                break;
            }
        }
        return Tuple.of(
                java.util.Collections.unmodifiableList(metadata),
                s.substring(Math.min(i, s.length())));
    }
}
