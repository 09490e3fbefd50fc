package org.groovecast.net.harbor.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A script endpoint: a method and a path pattern whose {@code :name} segments capture parameters
 * ({@code /api/:id}); a pattern ending in {@code *} matches everything under it.
 *
 * <p>A route's handler runs on the connection's event loop, which suits the engine's own quick
 * answers (metrics); one that runs the script's code, which may block, is made {@link #mayBlock()}.
 *
 * @param attempt which of its requests that get 401 count as failed logins (see {@link #guard()}),
 *     null for none
 * @param blocking whether its handler runs on a virtual thread (see {@link #mayBlock()})
 */
public record Route(
        String method,
        String pattern,
        Function<HttpRequest, HttpReply> handler,
        String[] segments,
        Predicate<HttpRequest> attempt,
        boolean blocking) {
    public Route(String method, String pattern, Function<HttpRequest, HttpReply> handler) {
        this(method, pattern, handler, pattern.split("/", -1), null, false);
    }

    /** Whether the route is behind a login whose failures count (see {@link #guard()}). */
    public boolean guarded() {
        return attempt != null;
    }

    /**
     * The same route behind a login: the harbor counts its 401 answers as failed logins of the
     * client's address and, once that address has failed too often, answers 429 without calling it.
     */
    public Route guard() {
        return guard(request -> true);
    }

    /**
     * The same, counting a 401 as a failed login only for the requests {@code attempted} says tried
     * to log in: a page that challenges a browser which sent nothing yet (HTTP Basic's first round)
     * must not lock its own users out.
     */
    public Route guard(Predicate<HttpRequest> attempted) {
        return new Route(method, pattern, handler, segments, attempted, blocking);
    }

    /**
     * The same route with its handler run on a virtual thread, the connection's reads paused and
     * its answer written back on the loop: a handler that blocks (an HTTP call, a database) holds
     * up no other connection. One that has not answered within {@code
     * settings.harbor.handlerTimeout} is answered 503.
     */
    public Route mayBlock() {
        return new Route(method, pattern, handler, segments, attempt, true);
    }

    /**
     * The captured parameters when {@code path} matches, else null; a path without parameters
     * allocates nothing.
     */
    public Map<String, String> match(String path) {
        Map<String, String> params = Map.of();
        int at = 0; // start of the current segment in path
        for (int i = 0; i < segments.length; i++) {
            String want = segments[i];
            if (i > 0) {
                if (at > path.length() || at == 0 || path.charAt(at - 1) != '/') return null;
            }
            if (want.equals("*") && i == segments.length - 1) {
                params = mutable(params);
                params.put("*", path.substring(Math.min(at, path.length())));
                return params;
            }
            if (at > path.length()) return null;
            int end = path.indexOf('/', at);
            if (end < 0) end = path.length();
            if (want.startsWith(":")) {
                if (end == at) return null;
                params = mutable(params);
                params.put(want.substring(1), path.substring(at, end));
            } else if (want.length() != end - at || !path.startsWith(want, at)) {
                return null;
            }
            at = end + 1;
        }
        return at == path.length() + 1 ? params : null;
    }

    private static Map<String, String> mutable(Map<String, String> m) {
        return m.isEmpty() ? new LinkedHashMap<>() : m;
    }
}
