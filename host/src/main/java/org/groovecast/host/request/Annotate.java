package org.groovecast.host.request;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Metadata;

/**
 * Liquidsoap's {@code annotate:key="value",key2=value2:uri} prefix: metadata for the request, then
 * the rest of the URI. Quoted values may hold {@code ,} and {@code :} and escape {@code "} and
 * {@code \} with a backslash.
 */
final class Annotate implements Protocol {
    @Override
    public List<Step> resolve(String name, String arg, double secondsLeft) throws IOException {
        Map<String, String> notes = new LinkedHashMap<>();
        String rest = parse(arg, notes);
        return List.of(new Step(rest, Metadata.of(notes), false));
    }

    /** Reads {@code k="v",k2=v2:} into {@code into}; returns what follows the colon. */
    static String parse(String s, Map<String, String> into) throws IOException {
        int i = 0;
        while (i < s.length()) {
            int eq = s.indexOf('=', i);
            if (eq < 0) throw new IOException("annotate: expects key=\"value\" pairs, in " + s);
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
                if (i >= s.length()) throw new IOException("annotate: unterminated quote in " + s);
                i++;
            } else {
                while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != ':')
                    value.append(s.charAt(i++));
            }
            into.put(key, value.toString());
            if (i >= s.length())
                throw new IOException("annotate: missing ':' before the uri in " + s);
            char sep = s.charAt(i++);
            if (sep == ':') return s.substring(i);
            if (sep != ',')
                throw new IOException("annotate: expected ',' or ':' at " + (i - 1) + " in " + s);
        }
        throw new IOException("annotate: missing ':' before the uri in " + s);
    }
}
