package org.groovecast.host.status;

import java.util.Map;
import java.util.function.BiPredicate;
import org.groovecast.api.ScriptException;
import org.groovecast.net.auth.BasicAuth;

/**
 * {@code status.page(auth: [user:, password:])} checked when the script runs, not when someone logs
 * in.
 */
public final class StatusAuth {
    private StatusAuth() {}

    /** The login check, or null for a read-only page ({@code auth} absent). */
    public static BiPredicate<String, String> of(Map<?, ?> auth) {
        if (auth == null) return null;
        for (Object k : auth.keySet()) {
            if (!"user".equals(k) && !"password".equals(k)) {
                throw new ScriptException(
                        "status.page(): auth: takes user and password only, got \"" + k + "\"");
            }
        }
        return BasicAuth.credentials(field(auth, "user"), field(auth, "password"));
    }

    private static String field(Map<?, ?> auth, String key) {
        Object v = auth.get(key);
        if (v == null || v.toString().isEmpty()) {
            throw new ScriptException(
                    "status.page(): auth: needs a user and a password, as [user: 'admin', password: "
                            + "'...']; its "
                            + key
                            + " is "
                            + (v == null ? "missing" : "empty")
                            + (key.equals("password")
                                    ? " (for a password from the environment: def pw = env('STATUS_PASSWORD', ''), and "
                                            + "status.page(auth: ...) only if pw)"
                                    : ""));
        }
        return v.toString();
    }
}
