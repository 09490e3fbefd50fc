package org.groovecast.net.auth;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.BiPredicate;

/**
 * HTTP Basic authentication, both ways: the header a client sends, and the check a server makes.
 */
public final class BasicAuth {
    private BasicAuth() {}

    /** The {@code Authorization} header value for {@code user} and {@code password}. */
    public static String header(String user, String password) {
        return "Basic "
                + Base64.getEncoder()
                        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A check of one user and password, in constant time (both are compared, whatever the first
     * gives).
     */
    public static BiPredicate<String, String> credentials(String user, String password) {
        return (u, p) -> Secrets.same(user, u) & Secrets.same(password, p);
    }

    /** The user and password of a Basic {@code Authorization} header. */
    public record Credentials(String user, String password) {}

    /**
     * The credentials an {@code Authorization} header carries; null when it is no well-formed Basic
     * one.
     */
    public static Credentials parse(String header) {
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) return null;
        try {
            String raw =
                    new String(
                            Base64.getDecoder().decode(header.substring(6).trim()),
                            StandardCharsets.UTF_8);
            int colon = raw.indexOf(':');
            return colon < 0
                    ? null
                    : new Credentials(raw.substring(0, colon), raw.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Whether an {@code Authorization} header carries a user and password that {@code check}
     * accepts.
     */
    public static boolean accepts(String header, BiPredicate<String, String> check) {
        Credentials c = parse(header);
        return c != null && check.test(c.user(), c.password());
    }
}
