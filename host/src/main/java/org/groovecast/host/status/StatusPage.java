package org.groovecast.host.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Supplier;
import org.groovecast.api.ScriptException;
import org.groovecast.net.control.Commands;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.HttpRequest;
import org.groovecast.net.harbor.http.Route;

/**
 * {@code status.page(port:, path:, auth:)}: the station's face on a harbor port. The page and its
 * event stream are public and read-only; with {@code auth:} its buttons (skip, push a request, kick
 * the DJ) work for whoever logs in ({@link StatusLogin}, {@link StatusControl}), who also sees what
 * the public does not (DJ addresses, RTMP keys). Beside it, at the port's root and public like
 * Icecast's: {@code /status-json.xsl}, {@code /api/nowplaying} and {@code /api/clocks}, cacheable
 * for a second and open to other origins (CORS), since players and widgets on other sites read
 * them. {@code /healthz} and {@code /readyz} there too say whether the station is alive and ready
 * ({@link StationHealth}).
 */
public final class StatusPage {
    private static final String JSON = "application/json; charset=utf-8";
    private static final Map<String, String> PUBLIC =
            Map.of("Access-Control-Allow-Origin", "*", "Cache-Control", "max-age=1");
    private static final Map<String, String> PRIVATE = Map.of("Cache-Control", "no-store");

    /** The page runs its own files only and is never framed (no clickjacking of its buttons). */
    private static final Map<String, String> PAGE =
            Map.of(
                    "Cache-Control",
                    "no-cache",
                    "Content-Security-Policy",
                    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
                    "X-Frame-Options",
                    "DENY",
                    "X-Content-Type-Options",
                    "nosniff");

    private final Supplier<StationStatus> status;
    private final StatusLogin login;
    private final int port;
    private final String serverId;

    private StatusPage(
            Supplier<StationStatus> status, StatusLogin login, int port, String serverId) {
        this.status = status;
        this.login = login;
        this.port = port;
        this.serverId = serverId;
    }

    /**
     * Adds the page's routes to {@code harbor}.
     *
     * @param path where the page is, {@code /} or {@code /status}
     * @param credentials who may press its buttons, or null for a read-only page
     * @param status the status of the station on air, null until one is
     */
    public static void register(
            HarborServer harbor,
            String path,
            BiPredicate<String, String> credentials,
            Supplier<StationStatus> status,
            Commands commands,
            String serverId) {
        if (!path.matches("/[A-Za-z0-9._~/-]*")) {
            throw new ScriptException(
                    "status.page(): path must be a plain path such as '/' or '/status', got \""
                            + path
                            + "\"");
        }
        StatusLogin login = new StatusLogin(credentials);
        StatusPage page = new StatusPage(status, login, harbor.port(), serverId);
        StatusControl control = new StatusControl(login, commands, status);
        String base = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        Asset html = Asset.load("index.html", "text/html; charset=utf-8");
        harbor.addRoute(new Route("GET", base + "/", req -> html.reply()));
        if (!base.isEmpty()) {
            // The page's links are relative to its folder: /status must become /status/.
            harbor.addRoute(
                    new Route(
                            "GET",
                            base,
                            req ->
                                    new HttpReply(
                                            301,
                                            "text/plain; charset=utf-8",
                                            Map.of("Location", base + "/"),
                                            "moved to " + base + "/\n")));
        }
        for (String name : new String[] {"status.js", "status.css"}) {
            Asset a =
                    Asset.load(
                            name,
                            name.endsWith(".js")
                                    ? "text/javascript; charset=utf-8"
                                    : "text/css; charset=utf-8");
            harbor.addRoute(new Route("GET", base + "/" + name, req -> a.reply()));
        }
        // The figures every page shows, built once per half period for all of them; the logged-in
        // view apart.
        Map<Boolean, CachedJson> figures =
                Map.of(
                        false,
                                new CachedJson(
                                        EventStream.PERIOD_MILLIS / 2,
                                        () ->
                                                page.running()
                                                        .snapshot(false, login.buttons(), false)),
                        true,
                                new CachedJson(
                                        EventStream.PERIOD_MILLIS / 2,
                                        () ->
                                                page.running()
                                                        .snapshot(false, login.buttons(), true)));
        Map<Boolean, CachedJson> whole =
                Map.of(
                        false,
                                new CachedJson(
                                        1000,
                                        () ->
                                                page.running()
                                                        .snapshot(true, login.buttons(), false)),
                        true,
                                new CachedJson(
                                        1000,
                                        () ->
                                                page.running()
                                                        .snapshot(true, login.buttons(), true)));
        harbor.addRoute(
                page.route(
                        "GET",
                        base + "/api/events",
                        req -> {
                            boolean detailed = login.accepts(req);
                            return new HttpReply(
                                    200,
                                    "text/event-stream; charset=utf-8",
                                    Map.of("Cache-Control", "no-store"),
                                    new EventStream(
                                            page.running(),
                                            whole.get(detailed)::get,
                                            figures.get(detailed)::get));
                        }));
        harbor.addRoute(
                page.route(
                        "GET",
                        base + "/api/status",
                        req -> json(PRIVATE, whole.get(login.accepts(req)).get())));
        harbor.addRoute(
                page.route("GET", base + "/api/login", login::login).guard(StatusLogin::attempted));
        harbor.addRoute(
                page.route("GET", base + "/api/whoami", login::whoami)
                        .guard(StatusLogin::attempted));
        harbor.addRoute(
                page.route("POST", base + "/api/control/:command", control::run)
                        .guard(StatusLogin::attempted));
        Map<String, CachedJson> icestats = hostCache(16);
        harbor.addRoute(
                page.route(
                        "GET",
                        "/status-json.xsl",
                        req -> {
                            // Listen URLs name the host the client asked for: a cache per name, the
                            // names most asked for.
                            String host = req.headers().getOrDefault("host", "");
                            CachedJson cached;
                            synchronized (icestats) {
                                cached =
                                        icestats.computeIfAbsent(
                                                host,
                                                h ->
                                                        new CachedJson(
                                                                1000,
                                                                () ->
                                                                        IcecastStats.of(
                                                                                page.running(),
                                                                                page.port,
                                                                                h,
                                                                                serverId)));
                            }
                            return json(PUBLIC, cached.get());
                        }));
        CachedJson nowPlaying = new CachedJson(1000, () -> page.running().nowPlaying());
        harbor.addRoute(
                page.route("GET", "/api/nowplaying", req -> json(PUBLIC, nowPlaying.get())));
        CachedJson clocks = new CachedJson(1000, () -> page.running().clocks());
        harbor.addRoute(page.route("GET", "/api/clocks", req -> json(PUBLIC, clocks.get())));
        // On the event loop, uncached: every read is a volatile one, and a probe wants now.
        harbor.addRoute(new Route("GET", "/healthz", req -> page.health(true)));
        harbor.addRoute(new Route("GET", "/readyz", req -> page.health(false)));
    }

    /**
     * {@code /healthz} ({@code live}) or {@code /readyz}: 200 or 503, with what is wrong in the
     * body; 503 until a station is on air.
     */
    private HttpReply health(boolean live) {
        StationStatus s = status.get();
        Map<String, Object> body;
        boolean ok;
        if (s == null) {
            body = new LinkedHashMap<>();
            body.put(live ? "live" : "ready", false);
            body.put("station", null);
            body.put("starting", "no station is on air yet");
            ok = false;
        } else {
            body = live ? s.health().liveness(s.station()) : s.health().readiness(s.station());
            ok = Boolean.TRUE.equals(body.get(live ? "live" : "ready"));
        }
        return new HttpReply(ok ? 200 : 503, JSON, PRIVATE, CachedJson.write(body));
    }

    /**
     * The most recently asked-for hosts' caches: a flood of made-up names evicts, it never grows
     * the map.
     */
    private static Map<String, CachedJson> hostCache(int size) {
        return new LinkedHashMap<>(size * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, CachedJson> eldest) {
                return size() > size;
            }
        };
    }

    /** The status of the station on air, or a 503 before one is. */
    private StationStatus running() {
        StationStatus s = status.get();
        if (s == null) throw new NotRunning();
        return s;
    }

    /**
     * The page's handlers run on virtual threads: they read sources' state under locks the clocks
     * also take, which an event loop must never wait for.
     */
    private Route route(String method, String pattern, Function<HttpRequest, HttpReply> handler) {
        return new Route(
                        method,
                        pattern,
                        req -> {
                            try {
                                return handler.apply(req);
                            } catch (NotRunning e) {
                                return HttpReply.text(503, "the station is not running\n");
                            }
                        })
                .mayBlock();
    }

    private static HttpReply json(Map<String, String> headers, String body) {
        return new HttpReply(200, JSON, headers, body);
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
                if (in == null)
                    throw new IllegalStateException(
                            "status page asset missing from the jar: " + name);
                return new Asset(in.readAllBytes(), type);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        HttpReply reply() {
            return new HttpReply(200, type, PAGE, bytes);
        }
    }
}
