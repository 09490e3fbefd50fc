package org.groovecast.host.status;

import java.util.Map;
import java.util.function.BiPredicate;
import org.groovecast.api.ScriptException;
import org.groovecast.net.BasicAuth;

/** {@code status.page(auth: [user:, password:])} checked when the script runs, not when someone logs in. */
public final class StatusAuth {
    private StatusAuth() {
    }

    /** The login check, or null for a read-only page ({@code auth} absent). */
    public static BiPredicate<String, String> of(Map<?, ?> auth) {
        if (auth == null) return null;
        Object user = auth.get("user");
        Object password = auth.get("password");
        if (!(user instanceof CharSequence u) || u.isEmpty() || !(password instanceof CharSequence p) || p.isEmpty()) {
            throw new ScriptException("status.page(): auth: needs a user and a password, as [user: 'admin', "
                    + "password: '...'], got " + auth.keySet());
        }
        for (Object k : auth.keySet()) {
            if (!"user".equals(k) && !"password".equals(k)) {
                throw new ScriptException("status.page(): auth: takes user and password only, got \"" + k + "\"");
            }
        }
        return BasicAuth.credentials(u.toString(), p.toString());
    }
}
