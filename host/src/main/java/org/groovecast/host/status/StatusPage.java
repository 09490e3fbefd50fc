package org.groovecast.host.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Supplier;
import org.groovecast.net.BasicAuth;
import org.groovecast.net.control.Commands;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.harbor.HttpReply;
import org.groovecast.net.harbor.HttpRequest;
import org.groovecast.net.harbor.Route;

/**
 * {@code status.page(port:, path:, auth:)}: the station's face on a harbor port. The page and its
 * event stream are public and read-only; with {@code auth:} its buttons (skip, push a request,
 * kick the DJ) work for whoever logs in with those credentials (HTTP Basic, which the browser
 * then sends with the page's calls). Beside it, at the port's root and public like Icecast's:
 * {@code /status-json.xsl}, {@code /api/nowplaying} and {@code /api/clocks}, cacheable for a second
 * and open to other origins (CORS), since players and widgets on other sites read them.
 */
public final class StatusPage {
    private static final String JSON = "application/json; charset=utf-8";
    private static final Map<String, String> PUBLIC = Map.of("Access-Control-Allow-Origin", "*", "Cache-Control", "max-age=1");
    private static final Map<String, String> PRIVATE = Map.of("Cache-Control", "no-store");
    /** What the page's buttons may run: nothing else of the control interface is reachable through it. */
    private static final java.util.List<String> ACTIONS = java.util.List.of(".skip", ".push", ".stop");

    private final Supplier<StationStatus> status;
    private final BiPredicate<String, String> credentials;
    private final Commands commands;
    private final int port;
    private final String serverId;

    private StatusPage(Supplier<StationStatus> status, BiPredicate<String, String> credentials, Commands commands,
                       int port, String serverId) {
        this.status = status;
        this.credentials = credentials;
        this.commands = commands;
        this.port = port;
        this.serverId = serverId;
    }

    /**
     * Adds the page's routes to {@code harbor}.
     *
     * @param path        where the page is, {@code /} or {@code /status}
     * @param credentials who may press its buttons, or null for a read-only page
     * @param status      the station's status, null until it starts
     */
    public static void register(HarborServer harbor, String path, BiPredicate<String, String> credentials,
                                Supplier<StationStatus> status, Commands commands, String serverId) {
        StatusPage page = new StatusPage(status, credentials, commands, harbor.port(), serverId);
        String base = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        Asset html = Asset.load("index.html", "text/html; charset=utf-8");
        harbor.addRoute(new Route("GET", base + "/", req -> html.reply()));
        if (!base.isEmpty()) {
            // The page's links are relative to its folder: /status must become /status/.
            harbor.addRoute(new Route("GET", base, req -> new HttpReply(301, "text/plain; charset=utf-8",
                    Map.of("Location", base + "/"), "moved to " + base + "/\n")));
        }
        for (String name : new String[] {"status.js", "status.css"}) {
            Asset a = Asset.load(name, name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8");
            harbor.addRoute(new Route("GET", base + "/" + name, req -> a.reply()));
        }
        CachedJson figures = new CachedJson(EventStream.PERIOD_MILLIS / 2, () -> running(page).snapshot(false, page.actions()));
        harbor.addRoute(page.route("GET", base + "/api/events", req -> new HttpReply(200, "text/event-stream; charset=utf-8",
                Map.of("Cache-Control", "no-store", "X-Accel-Buffering", "no"),
                new EventStream(running(page), figures::get, page.actions()))));
        harbor.addRoute(page.route("GET", base + "/api/status", req ->
                json(PRIVATE, CachedJson.write(running(page).snapshot(true, page.actions())))));
        harbor.addRoute(page.route("GET", base + "/api/login", page::login).guard());
        harbor.addRoute(page.route("GET", base + "/api/whoami", page::whoami));
        harbor.addRoute(page.route("POST", base + "/api/control/:command", page::control).guard());
        Map<String, CachedJson> icestats = new java.util.concurrent.ConcurrentHashMap<>();
        harbor.addRoute(page.route("GET", "/status-json.xsl", req -> {
            // Listen URLs name the host the client asked for; one cache per name, a few names at most.
            String host = req.headers().getOrDefault("host", "");
            CachedJson cached = icestats.size() < 16 ? icestats.computeIfAbsent(host, h -> new CachedJson(1000,
                    () -> IcecastStats.of(running(page), page.port, h, serverId))) : icestats.get(host);
            return json(PUBLIC, cached != null ? cached.get() : CachedJson.write(IcecastStats.of(running(page), page.port, host, serverId)));
        }));
        CachedJson nowPlaying = new CachedJson(1000, () -> running(page).nowPlaying());
        harbor.addRoute(page.route("GET", "/api/nowplaying", req -> json(PUBLIC, nowPlaying.get())));
        CachedJson clocks = new CachedJson(1000, () -> running(page).clocks());
        harbor.addRoute(page.route("GET", "/api/clocks", req -> json(PUBLIC, clocks.get())));
    }

    private boolean actions() {
        return credentials != null;
    }

    /** The status, or a 503 for a station that has not started (or stopped). */
    private static StationStatus running(StatusPage page) {
        StationStatus s = page.status.get();
        if (s == null) throw new NotRunning();
        return s;
    }

    /**
     * The page's handlers run on virtual threads: they read sources' state under locks the clocks
     * also take, which an event loop must never wait for.
     */
    private Route route(String method, String pattern, Function<HttpRequest, HttpReply> handler) {
        return new Route(method, pattern, req -> {
            try {
                return handler.apply(req);
            } catch (NotRunning e) {
                return HttpReply.text(503, "the station is not running\n");
            }
        }).mayBlock();
    }

    private static HttpReply json(Map<String, String> headers, String body) {
        return new HttpReply(200, JSON, headers, body);
    }

    private boolean loggedIn(HttpRequest req) {
        return credentials != null && BasicAuth.accepts(req.headers().get("authorization"), credentials);
    }

    /** Asks the browser for the credentials (its login dialog), then sends it back to the page. */
    private HttpReply login(HttpRequest req) {
        if (credentials == null) return HttpReply.text(404, "this status page is read-only (status.page without auth:)\n");
        if (!loggedIn(req)) {
            return new HttpReply(401, "text/plain; charset=utf-8",
                    Map.of("WWW-Authenticate", "Basic realm=\"Groovecast status\""), "log in to use the page's buttons\n");
        }
        String page = req.path().substring(0, req.path().length() - "api/login".length());
        return new HttpReply(303, "text/plain; charset=utf-8", Map.of("Location", page), "logged in\n");
    }

    /**
     * Whether the browser's credentials work, always answered 200: no challenge, so that asking
     * shows no dialog, and no error status, which the browser would log as a failed load.
     */
    private HttpReply whoami(HttpRequest req) {
        return json(PRIVATE, "{\"buttons\":" + actions() + ",\"loggedIn\":" + loggedIn(req) + "}");
    }

    private HttpReply control(HttpRequest req) {
        if (credentials == null) return HttpReply.text(404, "this status page is read-only (status.page without auth:)\n");
        if (!loggedIn(req)) return HttpReply.text(401, "log in first: the page's buttons need its credentials\n");
        String command = req.params().get("command");
        if (ACTIONS.stream().noneMatch(command::endsWith) || !commands.contains(command)) {
            return HttpReply.text(404, "the status page runs skip, push and stop commands of the station's sources; "
                    + "no such command: " + command + "\n");
        }
        Commands.Answer a = commands.run(command, req.body().strip());
        int code = switch (a.status()) {
            case OK, CLOSE -> 200;
            case BAD_ARGUMENT -> 400;
            case UNKNOWN -> 404;
            case FAILED -> 500;
        };
        return HttpReply.text(code, a.text() + "\n");
    }

    /** A 503 for requests that come before the station runs. */
    private static final class NotRunning extends RuntimeException {
        NotRunning() {
            super(null, null, false, false);
        }
    }

    /** A file of the page, read from the jar once: the page needs nothing from the internet. */
    private record Asset(byte[] bytes, String type) {
        static Asset load(String name, String type) {
            try (InputStream in = StatusPage.class.getResourceAsStream(name)) {
                if (in == null) throw new IllegalStateException("status page asset missing from the jar: " + name);
                return new Asset(in.readAllBytes(), type);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        HttpReply reply() {
            return new HttpReply(200, type, Map.of("Cache-Control", "no-cache"), bytes);
        }
    }
}
