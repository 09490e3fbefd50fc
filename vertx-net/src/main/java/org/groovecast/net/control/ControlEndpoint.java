package org.groovecast.net.control;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.groovecast.net.auth.Secrets;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.HttpRequest;

/**
 * The control commands over HTTP, at {@code /control/<command>} on a harbor port ({@code
 * server.http(port:, token:)}): the argument comes from {@code ?args=} or the POST body, and every
 * request must carry the token, as {@code Authorization: Bearer <token>} or {@code ?token=}. The
 * answer is the command's text; the status says how it went (200, 400 for a bad argument, 404 for
 * an unknown command, 500 when the command failed, 401 without the token).
 */
final class ControlEndpoint implements Function<HttpRequest, HttpReply> {
    static final String PATH = "/control/:command";
    private static final String BEARER = "bearer ";

    private final Commands commands;
    private final String token;

    ControlEndpoint(Commands commands, String token) {
        this.commands = commands;
        this.token = token;
    }

    @Override
    public HttpReply apply(HttpRequest req) {
        if (!authorized(req)) {
            return new HttpReply(
                    401,
                    "text/plain; charset=utf-8",
                    Map.of("WWW-Authenticate", "Bearer realm=\"control\""),
                    "ERROR: missing or wrong token\n");
        }
        String argument = req.data().length > 0 ? req.body() : req.query().getOrDefault("args", "");
        Commands.Answer a = commands.run(req.params().get("command"), argument);
        return HttpReply.text(a.httpStatus(), a.text().isEmpty() ? "" : a.text() + "\n");
    }

    private boolean authorized(HttpRequest req) {
        String given = req.query().get("token");
        String header = req.headers().get("authorization");
        if (header != null
                && header.length() > BEARER.length()
                && header.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            given = header.substring(BEARER.length()).strip();
        }
        // Compared in constant time, so that timing does not tell how much of a guess was right.
        return Secrets.same(token, given);
    }
}
