package org.groovecast.net.control;

import java.util.Map;
import java.util.function.Function;
import org.groovecast.net.auth.Secrets;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.HttpRequest;

/**
 * The control commands in telnet syntax over HTTP, as Liquidsoap's {@code server.harbor} and
 * AzuraCast use them ({@code server.harbor(port:, path: '/telnet', key:)}): the POST body is one
 * command line ({@code radio.skip}, {@code requests.push annotate:...}) and the answer is what
 * telnet would show before its {@code END}, with a final newline, always 200 as Liquidsoap's (an
 * unknown command or a bad argument is told in the text). Every request must carry the key in
 * {@code X-Liquidsoap-Api-Key}; without it, or with another, it gets 401 and nothing runs.
 */
final class TelnetEndpoint implements Function<HttpRequest, HttpReply> {
    static final String DEFAULT_PATH = "/telnet";

    /** As AzuraCast sends it (the harbor keeps header names in lower case). */
    static final String KEY_HEADER = "x-liquidsoap-api-key";

    /** A 401 names how to authenticate (RFC 9110 11.6.1): here, the header. */
    private static final Map<String, String> CHALLENGE =
            Map.of("WWW-Authenticate", "X-Liquidsoap-Api-Key realm=\"control\"");

    private final Commands commands;
    private final String key;

    TelnetEndpoint(Commands commands, String key) {
        this.commands = commands;
        this.key = key;
    }

    @Override
    public HttpReply apply(HttpRequest req) {
        // Compared in constant time, so that timing does not tell how much of a guess was right.
        if (!Secrets.same(key, req.headers().get(KEY_HEADER))) {
            return new HttpReply(
                    401,
                    "text/plain; charset=utf-8",
                    CHALLENGE,
                    "ERROR: missing or wrong X-Liquidsoap-Api-Key\n");
        }
        Commands.Answer a = commands.run(req.body());
        return HttpReply.text(200, a.text().isEmpty() ? "" : a.text() + "\n");
    }
}
