package org.groovecast.net.harbor;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.groovecast.net.auth.BasicAuth;
import org.groovecast.net.auth.Secrets;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.sessions.ListenerSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Icecast 2.4's admin views on a harbor port, for the tools written for Icecast (AzuraCast's
 * now-playing and reports, monitoring): {@code /admin/stats} and {@code /admin/listclients} in its
 * XML, key for key, and {@code /admin/killclient} and {@code /admin/moveclients} acting as its do.
 * Behind HTTP Basic, user {@code admin} and {@code settings.harbor.adminPassword}, compared in
 * constant time; wrong credentials count as a failed login of the address (429 past the limit), and
 * a request without them gets 401 and nothing else. Functions of the connection they are called
 * for.
 */
final class IcecastAdmin {
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    static final String STATS = "/admin/stats";
    static final String LIST_CLIENTS = "/admin/listclients";
    static final String KILL_CLIENT = "/admin/killclient";
    static final String MOVE_CLIENTS = "/admin/moveclients";
    static final String USER = "admin";

    private static final String XML = "text/xml; charset=utf-8";

    /** Icecast's answers are never cached. */
    private static final Map<String, String> UNCACHED =
            Map.of(
                    "Cache-Control",
                    "no-cache, no-store",
                    "Expires",
                    "Mon, 26 Jul 1997 05:00:00 GMT",
                    "Pragma",
                    "no-cache");

    private static final DateTimeFormatter RFC_822 =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.US);
    private static final DateTimeFormatter ISO_8601 =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ", Locale.US);

    private IcecastAdmin() {}

    /** Whether {@code path} is one of the views. */
    static boolean handles(String path) {
        return path.equals(STATS)
                || path.equals(LIST_CLIENTS)
                || path.equals(KILL_CLIENT)
                || path.equals(MOVE_CLIENTS);
    }

    /** The admin request whose head {@code c} holds. */
    static void handle(HarborConnection c) {
        if (c.tooManyFailures(true)) return;
        String authorization = c.head().header("authorization");
        if (!admits(c.server().adminPassword(), authorization)) {
            // A browser asks without credentials first: only a wrong guess counts.
            if (authorization != null) {
                c.failedLogin();
                log.info("harbor: admin request from {} refused (bad credentials)", c.peer());
            }
            Map<String, String> h = new java.util.LinkedHashMap<>(UNCACHED);
            h.putAll(HarborConnection.basicRealm("Icecast2 Server"));
            c.reply(
                    new HttpReply(
                            401, "text/plain; charset=utf-8", h, "You need to authenticate\r\n"));
            return;
        }
        Map<String, String> q = c.head().query();
        HarborServer server = c.server();
        switch (c.head().path()) {
            case STATS -> c.reply(xml(stats(server, c.head().header("host"))));
            case LIST_CLIENTS -> {
                String mount = q.get("mount");
                if (!known(server, mount)) {
                    sourceMissing(c, mount);
                    return;
                }
                c.reply(xml(listClients(server, mount)));
            }
            case KILL_CLIENT -> killClient(c, server, q);
            default -> moveClients(c, server, q);
        }
    }

    /** Whether {@code authorization} carries user admin and the admin password (none: no one). */
    static boolean admits(String password, String authorization) {
        BasicAuth.Credentials given = BasicAuth.parse(authorization);
        if (given == null) return false;
        // Both compared whatever the first gives; an empty password admits no one.
        boolean user = Secrets.same(USER, given.user());
        boolean pass = Secrets.same(password, given.password());
        return user & pass & !password.isEmpty();
    }

    private static boolean known(HarborServer server, String mount) {
        return mount != null && (server.mount(mount) != null || server.isStaticFolder(mount));
    }

    /**
     * A view of one mount asked without one is, to Icecast, no view at all; with one it does not
     * have, the source does not exist.
     */
    private static void sourceMissing(HarborConnection c, String mount) {
        c.reply(error(400, mount == null ? "Unknown admin request" : "Source does not exist"));
    }

    /** Icecast's error page. */
    static HttpReply error(int status, String message) {
        return new HttpReply(
                status,
                "text/html; charset=utf-8",
                UNCACHED,
                "<html><head><title>Error "
                        + status
                        + "</title></head><body><b>"
                        + status
                        + " - "
                        + message
                        + "</b></body></html>\r\n");
    }

    /** The whole of the port's figures, and every mount's: {@code /admin/stats}. */
    static String stats(HarborServer server, String host) {
        List<HarborMount> mounts = new ArrayList<>(server.mounts());
        mounts.sort(Comparator.comparing(HarborMount::path));
        String authority = host != null && !host.isBlank() ? host : "127.0.0.1:" + server.port();
        int listeners = 0;
        for (HarborMount m : mounts) listeners += m.listeners();
        Instant start = Instant.ofEpochMilli(server.startedAt());
        IcecastXml x = new IcecastXml().open("icestats");
        x.element("admin", "icemaster@localhost");
        x.element("client_connections", server.connections().accepted());
        x.element("clients", server.openConnections());
        x.element("connections", server.connections().accepted());
        x.element("file_connections", server.filesServed());
        x.element("host", authority.replaceFirst(":\\d+$", ""));
        x.element("listener_connections", server.sessions().begun());
        x.element("listeners", listeners);
        x.element("location", "Earth");
        x.element("server_id", server.serverId());
        x.element("server_start", RFC_822.format(start.atZone(ZoneId.systemDefault())));
        x.element("server_start_iso8601", ISO_8601.format(start.atZone(ZoneId.systemDefault())));
        x.element("source_client_connections", 0);
        x.element("source_relay_connections", 0);
        x.element("source_total_connections", mounts.size());
        x.element("sources", mounts.size());
        x.element("stats", 0);
        x.element("stats_connections", 0);
        for (HarborMount m : mounts) source(x, m, authority);
        return x.close("icestats").text();
    }

    private static void source(IcecastXml x, HarborMount m, String authority) {
        Map<String, String> icy = m.icyHeaders();
        HarborMount.AudioInfo a = m.audio();
        Instant start = Instant.ofEpochMilli(m.createdAt());
        x.open("source", "mount", m.path());
        if (a != null) {
            x.element(
                    "audio_info",
                    (a.bitrate() > 0 ? "bitrate=" + a.bitrate() + ";" : "")
                            + "samplerate="
                            + a.sampleRate()
                            + ";channels="
                            + a.channels());
            if (a.bitrate() > 0) x.element("bitrate", a.bitrate());
            x.element("channels", a.channels());
        }
        x.element("genre", icy.getOrDefault("icy-genre", "various"));
        x.element("listener_peak", m.listenerPeak());
        x.element("listeners", m.listeners());
        x.element("listenurl", "http://" + authority + m.path());
        int max = m.admission().maxListeners();
        x.element("max_listeners", max > 0 ? String.valueOf(max) : "unlimited");
        x.element("public", icy.getOrDefault("icy-pub", "0"));
        if (a != null) x.element("samplerate", a.sampleRate());
        x.element(
                "server_description",
                icy.getOrDefault("icy-description", "Unspecified description"));
        x.element("server_name", icy.getOrDefault("icy-name", "Unspecified name"));
        x.element("server_type", m.contentType());
        x.element("server_url", icy.get("icy-url"));
        x.element("slow_listeners", 0);
        x.element("source_ip", "127.0.0.1");
        x.element("stream_start", RFC_822.format(start.atZone(ZoneId.systemDefault())));
        x.element("stream_start_iso8601", ISO_8601.format(start.atZone(ZoneId.systemDefault())));
        x.element("title", m.title());
        x.element("total_bytes_read", m.bytesIn());
        x.element("total_bytes_sent", m.bytesOut());
        x.element("user_agent", "Groovecast");
        x.close("source");
    }

    /** The sessions going on at {@code mount}: {@code /admin/listclients}. */
    static String listClients(HarborServer server, String mount) {
        List<ListenerSession> sessions = server.sessions().on(mount);
        IcecastXml x = new IcecastXml().open("icestats").open("source", "mount", mount);
        x.element("Listeners", sessions.size());
        for (ListenerSession s : sessions) {
            x.open("listener");
            x.element("IP", s.address().getHostAddress());
            x.element("UserAgent", s.agent() == null ? "" : s.agent());
            x.element("Connected", s.seconds());
            x.element("ID", s.id());
            x.element("username", s.user());
            x.close("listener");
        }
        return x.close("source").close("icestats").text();
    }

    private static void killClient(HarborConnection c, HarborServer server, Map<String, String> q) {
        String mount = q.get("mount");
        if (!known(server, mount)) {
            sourceMissing(c, mount);
            return;
        }
        String idText = q.get("id");
        if (idText == null) {
            c.reply(error(400, "Missing parameter"));
            return;
        }
        long id = leadingNumber(idText); // as atoi reads it: "abc" is client 0
        ListenerSession s = server.sessions().get(id);
        boolean removed =
                s != null && mount.equals(s.mount()) && (s.kick() || server.sessions().endHls(s));
        if (removed) log.info("harbor: admin {} killed listener {} of {}", c.peer(), id, mount);
        c.reply(xml(response("Client " + id + (removed ? " removed" : " not found"), removed)));
    }

    private static void moveClients(
            HarborConnection c, HarborServer server, Map<String, String> q) {
        String mount = q.get("mount");
        HarborMount from = mount == null ? null : server.mount(mount);
        if (from == null) {
            sourceMissing(c, mount);
            return;
        }
        String destination = q.get("destination");
        if (destination == null) {
            c.reply(xml(destinations(server, from)));
            return;
        }
        HarborMount to = server.mount(destination);
        if (to == null) {
            c.reply(error(400, "No such destination"));
            return;
        }
        if (to == from) {
            c.reply(error(400, "supplied mountpoints are identical"));
            return;
        }
        if (!from.moveTo(to)) {
            // Icecast answers "moved" and moves no one: a refusal says what happened.
            c.reply(error(400, "the mounts stream different formats"));
            return;
        }
        log.info("harbor: admin {} moved the listeners of {} to {}", c.peer(), mount, destination);
        c.reply(xml(response("Clients moved from " + mount + " to " + destination, true)));
    }

    /**
     * Where the listeners of {@code from} could go: what moveclients without a destination shows.
     */
    static String destinations(HarborServer server, HarborMount from) {
        List<HarborMount> mounts = new ArrayList<>(server.mounts());
        mounts.sort(Comparator.comparing(HarborMount::path));
        IcecastXml x = new IcecastXml().open("icestats").element("current_source", from.path());
        long now = System.currentTimeMillis();
        for (HarborMount m : mounts) {
            if (m == from) continue;
            x.open("source", "mount", m.path());
            x.element("fallback", "");
            x.element("listeners", m.listeners());
            x.element("Connected", (now - m.createdAt()) / 1000);
            x.element("content-type", m.contentType());
            x.close("source");
        }
        return x.close("icestats").text();
    }

    /** The number {@code text} begins with, 0 for none (C's atoi, which Icecast reads ids with). */
    static long leadingNumber(String text) {
        long n = 0;
        for (int i = 0; i < text.length() && i < 18; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') break;
            n = n * 10 + (c - '0');
        }
        return n;
    }

    private static String response(String message, boolean done) {
        return new IcecastXml()
                .open("iceresponse")
                .element("message", message)
                .element("return", done ? 1 : 0)
                .close("iceresponse")
                .text();
    }

    private static HttpReply xml(String text) {
        return new HttpReply(200, XML, UNCACHED, text);
    }
}
