package org.groovecast.host.status;

import java.util.function.Supplier;
import org.groovecast.net.control.Commands;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.HttpRequest;

/**
 * The status page's buttons: {@code POST <page>api/control/<command>}, for a logged-in user, the
 * commands the page offers and no other ({@link StationStatus#allows}). A request must come from
 * the page itself: it carries the page's own header, which a form or a page on another site cannot
 * send without the harbor's consent (CORS), so a site the user visits cannot press the buttons with
 * the credentials the browser holds.
 */
final class StatusControl {
    /** Sent by the page's fetch calls; its absence marks a cross-site request. */
    static final String HEADER = "x-groovecast-status";

    private final StatusLogin login;
    private final Commands commands;
    private final Supplier<StationStatus> status;

    StatusControl(StatusLogin login, Commands commands, Supplier<StationStatus> status) {
        this.login = login;
        this.commands = commands;
        this.status = status;
    }

    HttpReply run(HttpRequest req) {
        if (!login.buttons()) return StatusLogin.readOnly();
        if (!login.accepts(req))
            return HttpReply.text(401, "log in first: the page's buttons need its credentials\n");
        if (req.headers().get(HEADER) == null || !sameOrigin(req)) {
            return HttpReply.text(
                    403, "the page's buttons answer the page itself, not another site\n");
        }
        String command = req.params().get("command");
        StationStatus s = status.get();
        if (s == null || !s.allows(command) || !commands.contains(command)) {
            return HttpReply.text(
                    404,
                    "the status page runs the skip of outputs, the push of queues and the stop of "
                            + "live inputs; not "
                            + command
                            + "\n");
        }
        Commands.Answer a = commands.run(command, req.body().strip());
        return HttpReply.text(a.httpStatus(), a.text() + "\n");
    }

    /** An {@code Origin}, when the browser sends one, names the host the request went to. */
    private static boolean sameOrigin(HttpRequest req) {
        String origin = req.headers().get("origin");
        if (origin == null) return true;
        String host = req.headers().get("host");
        return host != null
                && (origin.equals("http://" + host) || origin.equals("https://" + host));
    }
}
