package org.groovecast.net.admission;

import java.util.Map;

/**
 * What a mount's {@code admit:} function answered for a client: let it in, refuse it, or send it
 * elsewhere. {@code true} (or the text {@code "true"}, an HTTP API's body) allows; {@code
 * [redirect: 'https://...']} redirects (302); {@code [allow: true]} allows and {@code [allow:
 * false]} refuses; anything else refuses, null and {@code false} included, so a function that
 * forgets to answer keeps the door shut.
 *
 * @param location where a redirect sends the client, else null
 */
public record AdmitAnswer(Kind kind, String location) {
    public enum Kind {
        ALLOW,
        DENY,
        REDIRECT
    }

    public static final AdmitAnswer ALLOW = new AdmitAnswer(Kind.ALLOW, null);
    public static final AdmitAnswer DENY = new AdmitAnswer(Kind.DENY, null);

    /**
     * Reads a function's answer; throws {@link IllegalArgumentException} for a redirect to no
     * usable URL (one that could inject a header, or none at all).
     */
    public static AdmitAnswer of(Object answer) {
        if (answer instanceof Boolean b) return b ? ALLOW : DENY;
        if (answer instanceof CharSequence s)
            return "true".equalsIgnoreCase(s.toString().strip()) ? ALLOW : DENY;
        if (!(answer instanceof Map<?, ?> m)) return DENY;
        Object to = m.get("redirect");
        if (to != null) return new AdmitAnswer(Kind.REDIRECT, location(to.toString()));
        return Boolean.TRUE.equals(m.get("allow")) ? ALLOW : DENY;
    }

    /** A URL a Location header may carry: absolute or a path, printable, without spaces. */
    private static String location(String url) {
        String u = url.strip();
        boolean shaped =
                u.startsWith("/")
                        || u.regionMatches(true, 0, "http://", 0, 7)
                        || u.regionMatches(true, 0, "https://", 0, 8);
        for (int i = 0; i < u.length() && shaped; i++) {
            char c = u.charAt(i);
            if (c <= 0x20 || c >= 0x7f) shaped = false;
        }
        if (!shaped)
            throw new IllegalArgumentException(
                    "a redirect to '"
                            + u
                            + "', which is no http(s) URL or path (printable ASCII, no spaces)");
        return u;
    }
}
