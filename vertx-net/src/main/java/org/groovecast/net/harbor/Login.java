package org.groovecast.net.harbor;

import java.util.Map;

/**
 * What a source client's login check answered: whether it may stream, the user it logged in as, and
 * who it is on air when the check said so (AzuraCast's DJ logins answer a name and a display name).
 *
 * @param user the user the client sent
 * @param username the DJ's name the check answered, else {@code user}
 * @param displayName the name to show, else {@code username}
 * @param named whether the check answered a name or display name (they then reach the metadata)
 */
public record Login(
        boolean allowed, String user, String username, String displayName, boolean named) {
    /**
     * The user and password a source client sent, as a login check is asked about them. Icecast
     * clients that can send only a password (the user fixed to {@code source}, or none) carry the
     * DJ's own as {@code dj1:pw} (or {@code dj1,pw}) in it, the convention AzuraCast's DJ logins
     * follow: those are split into user and password.
     */
    public record Sent(String user, String password) {
        public static Sent of(String user, String password) {
            if (user.isEmpty() || user.equals("source")) {
                for (int i = 0; i < password.length(); i++) {
                    char c = password.charAt(i);
                    if (c == ':' || c == ',') {
                        return i == 0
                                ? new Sent(user, password)
                                : new Sent(password.substring(0, i), password.substring(i + 1));
                    }
                }
            }
            return new Sent(user, password);
        }
    }

    /** The user and password were accepted, nothing more said. */
    public static Login allowed(String user) {
        return new Login(true, user, user, user, false);
    }

    public static Login refused(String user) {
        return new Login(false, user, user, user, false);
    }

    /**
     * What a script's {@code auth} function answered: a boolean; or a map {@code [allow: true,
     * username: 'dj1', displayName: 'DJ One']} ({@code display_name} also read, as AzuraCast's API
     * spells it), refused unless {@code allow} is true; or the text {@code "true"} (an HTTP API's
     * body). Anything else, null included, refuses.
     */
    public static Login of(Object answer, String user) {
        if (answer instanceof Boolean || answer instanceof CharSequence)
            return yes(answer) ? allowed(user) : refused(user);
        if (!(answer instanceof Map<?, ?> m)) return refused(user);
        boolean ok = yes(m.get("allow"));
        String username = text(m.get("username"));
        String displayName =
                text(m.containsKey("displayName") ? m.get("displayName") : m.get("display_name"));
        String name = username != null ? username : user;
        return new Login(
                ok,
                user,
                name,
                displayName != null ? displayName : name,
                username != null || displayName != null);
    }

    /**
     * True, or the text "true" (an HTTP API's body); Groovy truth would admit any text, "false"
     * included.
     */
    private static boolean yes(Object v) {
        return v instanceof Boolean b
                ? b
                : v instanceof CharSequence s && "true".equalsIgnoreCase(s.toString().strip());
    }

    private static String text(Object v) {
        if (v == null) return null;
        String s = v.toString().strip();
        return s.isEmpty() ? null : s;
    }
}
