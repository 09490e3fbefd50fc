package org.groovecast.net.admission;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Icecast's URL listener authentication as an {@code admit:} function ({@code
 * harbor.admit.url('http://auth.example/listener_add')}): each client is posted, form-encoded, to
 * the URL with Icecast 2.4's {@code listener_add} fields ({@code action}, {@code server}, {@code
 * port}, {@code client}, {@code mount} with the query, {@code user}, {@code pass}, {@code ip},
 * {@code agent}) and let in when the answer carries the header {@code icecast-auth-user: 1}, so an
 * auth script written for Icecast (AzuraCast's, a pay wall's) answers the harbor as it is. Its
 * {@code icecast-auth-message} is logged with a refusal. It runs on the admission's virtual thread;
 * a server that cannot be reached or does not answer in time refuses, with one log line.
 */
public final class ListenerUrlAuth implements UserFunction {
    private static final Logger log = LoggerFactory.getLogger(ListenerUrlAuth.class);

    /** The header Icecast's {@code auth_header} option names by default. */
    static final String AUTH_HEADER = "icecast-auth-user";

    static final String MESSAGE_HEADER = "icecast-auth-message";

    private final URI url;
    private final Duration timeout;

    /**
     * @param timeout how long the server may take; keep it under the admission's own deadline, so
     *     that the request ends with its thread
     */
    public ListenerUrlAuth(URI url, Duration timeout) {
        this.url = url;
        this.timeout = timeout;
    }

    /**
     * One client for every mount and reload: a client holds a selector thread of its own. Made on
     * first use, so a station without URL auth has none.
     */
    private static final class Shared {
        static final HttpClient HTTP =
                HttpClient.newBuilder()
                        // HTTP/1.1 as Icecast's libcurl speaks it: no h2c upgrade offered to a
                        // script server that may mishandle one
                        .version(HttpClient.Version.HTTP_1_1)
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .build();
    }

    public URI url() {
        return url;
    }

    /** Whether the server lets the client in: {@code args[0]} is the client's map. */
    @Override
    public Object call(Object... args) {
        Map<?, ?> client = args.length > 0 && args[0] instanceof Map<?, ?> m ? m : Map.of();
        HttpResponse<Void> r;
        try {
            r =
                    Shared.HTTP.send(
                            HttpRequest.newBuilder(url)
                                    .timeout(timeout)
                                    .header("Content-Type", "application/x-www-form-urlencoded")
                                    .POST(HttpRequest.BodyPublishers.ofString(form(client)))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new Unreachable(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable("interrupted");
        }
        if ("1".equals(r.headers().firstValue(AUTH_HEADER).map(String::strip).orElse(null)))
            return true;
        log.info(
                "harbor.admit.url {}: refused {} on {} (HTTP {}{})",
                url,
                client.get("address"),
                client.get("mount"),
                r.statusCode(),
                r.headers().firstValue(MESSAGE_HEADER).map(m -> ": " + m).orElse(""));
        return false;
    }

    /** A failure said in one line, the client refused: no stack trace for a server that is down. */
    @Override
    public Object callOr(Object failed, Object... args) {
        try {
            return call(args);
        } catch (Unreachable e) {
            Map<?, ?> client = args.length > 0 && args[0] instanceof Map<?, ?> m ? m : Map.of();
            log.warn(
                    "harbor.admit.url {}: no answer for {} on {} ({}); refused",
                    url,
                    client.get("address"),
                    client.get("mount"),
                    e.getMessage());
            return failed;
        }
    }

    /** Icecast 2.4's {@code listener_add} fields, in its order. */
    static String form(Map<?, ?> client) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("action", "listener_add");
        f.put("server", text(client.get("server")));
        f.put("port", text(client.get("port")));
        f.put("client", text(client.get("id")));
        f.put("mount", text(client.get("target")));
        f.put("user", text(client.get("user")));
        f.put("pass", text(client.get("password")));
        f.put("ip", text(client.get("address")));
        f.put("agent", text(client.get("agent")));
        StringBuilder b = new StringBuilder();
        f.forEach(
                (k, v) -> {
                    if (!b.isEmpty()) b.append('&');
                    b.append(k).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8));
                });
        return b.toString();
    }

    private static String text(Object v) {
        return v == null ? "" : v.toString();
    }

    @Override
    public String toString() {
        return "harbor.admit.url(" + url + ")";
    }

    /** The auth server could not be asked. */
    private static final class Unreachable extends RuntimeException {
        Unreachable(String message) {
            super(message, null, false, false);
        }
    }
}
