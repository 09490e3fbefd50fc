package org.groovecast.net.harbor;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.net.harbor.files.StaticFile;
import org.groovecast.net.harbor.files.StaticFiles;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.HttpRequest;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.RequestReader;
import org.groovecast.net.harbor.http.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ordinary request on a harbor connection, its body read: answered by the script's route for it
 * ({@code harbor.http.register}; on the loop, or off it for a handler that may block), or else by
 * what the port serves itself: a title update by POST, OPTIONS, a static file, a mount's generated
 * playlist; 404 for the rest. Functions of the connection they are called for, which keeps their
 * state: nothing of their own, and no handler in the pipeline.
 */
final class RouteResponder {
    /** The connection's lines under its own logger's name, which is what operators filter on. */
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    /** What the harbor takes, as Icecast says it (libshout reads PUT and SOURCE from it). */
    private static final String ALLOW = "GET, HEAD, POST, PUT, OPTIONS, SOURCE";

    private RouteResponder() {}

    /** The request whose head {@code c} holds, with its {@code body}. */
    static void respond(HarborConnection c, byte[] body) {
        RequestHead head = c.head();
        HarborServer server = c.server();
        HarborServer.Match m =
                server.route(head.method().equals("HEAD") ? "GET" : head.method(), head.path());
        if (m == null) {
            served(c, head, body);
            return;
        }
        Route route = m.route();
        if (route.guarded() && c.tooManyFailures(true)) return;
        HttpRequest req =
                new HttpRequest(
                        head.method(), head.path(), head.query(), head.headers(), m.params(), body);
        if (route.blocking()) {
            long timeout = server.limits().handlerTimeoutNanos();
            c.offLoop(
                    timeout,
                    () -> encoded(route.handler().apply(req)),
                    r -> {
                        c.takeRequestsAgain();
                        switch (r.outcome()) {
                            case ANSWERED -> answer(c, route, req, r.value());
                            case TIMED_OUT -> {
                                log.warn(
                                        "harbor: handler of {} {} on port {} did not answer {} within {} s "
                                                + "(settings.harbor.handlerTimeout); answered 503",
                                        route.method(),
                                        route.pattern(),
                                        server.port(),
                                        c.peer(),
                                        RequestReader.secondsText(timeout));
                                c.reply(HttpReply.text(503, "the handler did not answer in time"));
                            }
                            case FAILED -> {
                                server.handlerFailed(route, r.error());
                                c.reply(HttpReply.text(500, "internal error"));
                            }
                        }
                    },
                    ReplyWriter::discard);
            return;
        }
        HttpReply r;
        try {
            r = route.handler().apply(req);
        } catch (RuntimeException e) {
            server.handlerFailed(route, e);
            c.reply(HttpReply.text(500, "internal error"));
            return;
        }
        answer(c, route, req, r);
    }

    /** Null stays null: {@link #answer} says what a handler that answered nothing gets. */
    private static HttpReply encoded(HttpReply r) {
        return r == null ? null : r.encoded();
    }

    /** A request no route takes: what the port serves itself, or 404. */
    private static void served(HarborConnection c, RequestHead head, byte[] body) {
        if (head.method().equals("POST") && head.path().equals(TitleUpdates.ADMIN_METADATA)) {
            Map<String, String> params = new LinkedHashMap<>(head.query());
            try {
                params.putAll(RequestHead.form(new String(body, StandardCharsets.ISO_8859_1)));
            } catch (RequestHead.Malformed e) {
                c.fail(400, e.getMessage());
                return;
            }
            TitleUpdates.adminMetadata(c, params);
            return;
        }
        if (head.method().equals("OPTIONS")) {
            options(c, head);
            return;
        }
        Map.Entry<String, StaticFiles> guarded = c.server().guardedStatic(head.path());
        if (guarded != null) {
            StaticAdmission.screen(c, guarded.getValue(), guarded.getKey(), () -> files(c, head));
            return;
        }
        files(c, head);
    }

    /** A static file, a mount's generated playlist, or 404. */
    private static void files(HarborConnection c, RequestHead head) {
        StaticFile file;
        try {
            file = c.server().staticFile(head.path());
        } catch (StaticFiles.Refused r) {
            if (r.status == 400) {
                c.fail(400, r.getMessage() + ": " + head.target());
            } else {
                log.info(
                        "harbor: {} from {}: {}: {}",
                        r.status,
                        c.peer(),
                        r.getMessage(),
                        head.path());
                c.reply(HttpReply.text(r.status, r.getMessage()));
            }
            return;
        }
        if (file != null) {
            String folder = c.server().staticFolder(head.path());
            c.server().fileServed();
            if (folder != null) HlsClients.served(c, folder, file);
            c.sendStaticFile(file);
            return;
        }
        HttpReply playlist =
                head.method().equals("GET") || head.method().equals("HEAD")
                        ? MountPlaylists.answer(
                                head.path(),
                                c.server(),
                                head.header("host"),
                                c.ctx().channel().localAddress())
                        : null;
        if (playlist != null) {
            c.reply(playlist);
            return;
        }
        c.reply(HttpReply.text(404, "not found: " + head.path()));
    }

    /**
     * {@code OPTIONS *} (and OPTIONS on a path no route takes): 204 with what the harbor takes, as
     * Icecast 2.5 answers it, so that libshout's probe before each connection and title update is
     * no error; its {@code Upgrade: TLS} is ignored (RFC 9110 7.8), so it goes on in plain text.
     */
    private static void options(HarborConnection c, RequestHead head) {
        if (c.server().mount(head.path()) != null) {
            // A browser's preflight before a web player asks for the stream with Icy-MetaData.
            c.reply(
                    new HttpReply(
                            204,
                            null,
                            Map.of(
                                    "Allow",
                                    ALLOW,
                                    "Accept-Encoding",
                                    "identity",
                                    "Access-Control-Allow-Origin",
                                    "*",
                                    "Access-Control-Allow-Methods",
                                    "GET, HEAD, OPTIONS",
                                    "Access-Control-Allow-Headers",
                                    "Icy-MetaData"),
                            null));
            return;
        }
        c.reply(
                new HttpReply(
                        204, null, Map.of("Allow", ALLOW, "Accept-Encoding", "identity"), null));
    }

    private static void answer(HarborConnection c, Route route, HttpRequest req, HttpReply r) {
        if (r == null) r = new HttpReply(204, null, Map.of(), null);
        if (route.guarded() && r.status() == 401 && route.attempt().test(req)) c.failedLogin();
        c.reply(r);
    }
}
