package org.groovecast.host.status;

import java.util.Map;
import java.util.function.BiPredicate;
import org.groovecast.net.auth.BasicAuth;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.HttpRequest;

/**
 * Who may press the status page's buttons: HTTP Basic with {@code status.page(auth:)}'s
 * credentials, which the browser asks for once (at {@code api/login}) and then sends with the
 * page's calls by itself. Only requests that carried credentials count as failed logins: the
 * browser's first, empty round of HTTP Basic is no attempt.
 */
final class StatusLogin {
    static final String REALM = "Groovecast status";

    private final BiPredicate<String, String> credentials;

    /**
     * @param credentials the check, or null for a read-only page
     */
    StatusLogin(BiPredicate<String, String> credentials) {
        this.credentials = credentials;
    }

    boolean buttons() {
        return credentials != null;
    }

    /** Whether the request carries the page's credentials. */
    boolean accepts(HttpRequest req) {
        return credentials != null
                && BasicAuth.accepts(req.headers().get("authorization"), credentials);
    }

    /** What counts as a login attempt for the harbor's failed-login limit. */
    static boolean attempted(HttpRequest req) {
        return req.headers().get("authorization") != null;
    }

    /** Asks the browser for the credentials (its login dialog), then sends it back to the page. */
    HttpReply login(HttpRequest req) {
        if (credentials == null) return readOnly();
        if (!accepts(req)) {
            return new HttpReply(
                    401,
                    "text/plain; charset=utf-8",
                    Map.of("WWW-Authenticate", "Basic realm=\"" + REALM + "\""),
                    "log in to use the page's buttons\n");
        }
        String page = req.path().substring(0, req.path().length() - "api/login".length());
        return new HttpReply(
                303, "text/plain; charset=utf-8", Map.of("Location", page), "logged in\n");
    }

    /**
     * Whether the page has buttons and the browser's credentials work, without a challenge (no
     * dialog). Wrong credentials answer 401, which counts toward the failed-login limit: this must
     * not be a way to try passwords for free.
     */
    HttpReply whoami(HttpRequest req) {
        boolean in = accepts(req);
        if (!in && attempted(req)) return HttpReply.text(401, "wrong user or password\n");
        return new HttpReply(
                200,
                "application/json; charset=utf-8",
                Map.of("Cache-Control", "no-store"),
                "{\"buttons\":" + buttons() + ",\"loggedIn\":" + in + "}");
    }

    static HttpReply readOnly() {
        return HttpReply.text(404, "this status page is read-only (status.page without auth:)\n");
    }
}
