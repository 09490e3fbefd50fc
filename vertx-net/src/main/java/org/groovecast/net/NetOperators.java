package org.groovecast.net;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.ENCODER;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NONE;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.OUTPUT;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.groovecast.net.admission.DenyList;
import org.groovecast.net.admission.ListenerUrlAuth;
import org.groovecast.net.admission.MountAdmission;
import org.groovecast.net.auth.BasicAuth;
import org.groovecast.net.harbor.HarborMount;
import org.groovecast.net.harbor.HarborOutput;
import org.groovecast.net.harbor.LiveInput;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.Route;
import org.groovecast.net.icecast.IcecastClient;
import org.groovecast.net.icecast.IcecastOutput;
import org.groovecast.net.icecast.IcecastTarget;
import org.groovecast.net.icecast.ShoutcastProtocol;
import org.groovecast.net.tls.ClientTls;

/** The script functions of the network layer: harbor mounts, live inputs and HTTP endpoints. */
public final class NetOperators {
    /** What a script's HTTP handler answers where it fails: a 500. */
    private static final Object FAILED = new Object();

    private NetOperators() {}

    public static List<OperatorSpec> specs(Network net) {
        return List.of(
                OperatorSpec.named("output.harbor")
                        .doc(
                                "Serves the encoded stream to listeners at http://host:port/mount, from the engine itself.")
                        .requiredNamed("mount", STRING, "the mount name: 'radio' for /radio")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .named(
                                "burst",
                                INTEGER,
                                65_536,
                                "bytes of recent stream a new listener gets at once")
                        .named(
                                "maxBuffer",
                                INTEGER,
                                1_048_576,
                                "bytes a listener may fall behind before it is dropped")
                        .named("name", STRING, "Groovecast", "station name (icy-name)")
                        .named("description", STRING, "", "icy-description")
                        .named("genre", STRING, "", "icy-genre")
                        .named("url", STRING, "", "icy-url")
                        .named(
                                "public",
                                BOOLEAN,
                                false,
                                "let directories list the stream (icy-pub)")
                        .named(
                                "fallible",
                                BOOLEAN,
                                false,
                                "accept a source that may become unavailable")
                        .named(
                                "onConnect",
                                FUNCTION,
                                null,
                                "{ session -> }: called with each new listener's session (id, "
                                        + "address, agent, referer, user, mount, start, seconds, "
                                        + "bytes, headers)")
                        .calls("the listener's session")
                        .named(
                                "onDisconnect",
                                FUNCTION,
                                null,
                                "{ session -> }: called with a listener's session once it left")
                        .calls("the listener's session")
                        .named(
                                "auth",
                                FUNCTION,
                                null,
                                "{ user, password -> bool }: listeners must log in (HTTP Basic)")
                        .calls("the user", "the password")
                        .named(
                                "maxListeners",
                                INTEGER,
                                0,
                                "listeners at once; the next gets 503 with Retry-After (0: no cap)")
                        .range(0, Integer.MAX_VALUE)
                        .named(
                                "maxListenerDuration",
                                NUMBER,
                                0.0,
                                "seconds a listener may stay, then it is disconnected (0: no limit)")
                        .range(0, 1e9)
                        .named(
                                "deny",
                                MAP,
                                Map.of(),
                                "[addresses: ['203.0.113.7', '198.51.100.0/24'], agents: ['*bot*', "
                                        + "'/regex/']]: refused with 403")
                        .check(DenyList::problem)
                        .named(
                                "admit",
                                FUNCTION,
                                null,
                                "{ client -> true, false or [redirect: url] }: asked about each "
                                        + "listener off the event loop (harbor.admit.url for Icecast's URL auth)")
                        .calls("the client")
                        .positional("encoder", ENCODER, "the format, e.g. mp3(bitrate: 128)")
                        .positional("source", SOURCE, "the source")
                        .returns(OUTPUT)
                        .create(a -> harborOutput(net, a)),
                OperatorSpec.named("output.icecast")
                        .doc(
                                "Streams to an Icecast 2 server as a source client, reconnecting when it is down or restarts.")
                        .named("host", STRING, "localhost", "the server")
                        .named("port", INTEGER, 8000, "its port")
                        .range(1, 65535)
                        .named("user", STRING, "source", "the source user")
                        .named("password", STRING, "hackme", "the source password")
                        .requiredNamed("mount", STRING, "the mount, 'radio' or '/radio'")
                        .named("name", STRING, "", "Ice-Name")
                        .named("description", STRING, "", "Ice-Description")
                        .named("genre", STRING, "", "Ice-Genre")
                        .named("url", STRING, "", "Ice-Url")
                        .named(
                                "public",
                                BOOLEAN,
                                false,
                                "list the stream in directories (Ice-Public)")
                        .named(
                                "onError",
                                FUNCTION,
                                null,
                                "{ error -> seconds } before reconnecting; backoff 1 s to 30 s by default")
                        .calls("the error message")
                        .named(
                                "timeout",
                                NUMBER,
                                10.0,
                                "seconds the server may take to answer, or stop reading the stream, "
                                        + "before the connection is made again")
                        .named(
                                "fallible",
                                BOOLEAN,
                                false,
                                "accept a source that may become unavailable")
                        .named(
                                "tls",
                                BOOLEAN,
                                false,
                                "connect over TLS (Icecast's <ssl>1</ssl> listen socket)")
                        .named(
                                "tlsTrust",
                                STRING,
                                "",
                                "a PEM file of certificates trusted besides the JVM's (a private CA, "
                                        + "a self-signed server)")
                        .named(
                                "tlsVerify",
                                BOOLEAN,
                                true,
                                "check the server's certificate; false takes any (still encrypted)")
                        .positional("encoder", ENCODER, "the format, e.g. mp3(bitrate: 128)")
                        .positional("source", SOURCE, "the source")
                        .returns(OUTPUT)
                        .create(a -> icecast(net, a)),
                OperatorSpec.named("output.shoutcast")
                        .doc(
                                "Streams to a Shoutcast v1 server (or Icecast's shoutcast-compatible socket) with the ICY source "
                                        + "protocol, reconnecting when it is down or restarts.")
                        .named("host", STRING, "localhost", "the server")
                        .named("port", INTEGER, 8000, "its port (listeners, title updates)")
                        .range(1, 65535)
                        .named(
                                "sourcePort",
                                INTEGER,
                                0,
                                "where the source connects; 0 for port + 1, as Shoutcast v1 wants")
                        .range(0, 65535)
                        .named("user", STRING, "source", "sent as user:password when not 'source'")
                        .named("password", STRING, "hackme", "the source password")
                        .named("name", STRING, "", "icy-name")
                        .named("description", STRING, "", "icy-description")
                        .named("genre", STRING, "", "icy-genre")
                        .named("url", STRING, "", "icy-url")
                        .named("public", BOOLEAN, false, "list the stream in directories (icy-pub)")
                        .named(
                                "onError",
                                FUNCTION,
                                null,
                                "{ error -> seconds } before reconnecting; backoff 1 s to 30 s by default")
                        .calls("the error message")
                        .named(
                                "timeout",
                                NUMBER,
                                10.0,
                                "seconds the server may take to answer, or stop reading the stream, "
                                        + "before the connection is made again")
                        .named(
                                "fallible",
                                BOOLEAN,
                                false,
                                "accept a source that may become unavailable")
                        .positional("encoder", ENCODER, "the format, e.g. mp3(bitrate: 128)")
                        .positional("source", SOURCE, "the source")
                        .returns(OUTPUT)
                        .create(a -> shoutcast(net, a)),
                OperatorSpec.named("input.harbor")
                        .doc(
                                "A live source client (Icecast protocol: ffmpeg, BUTT, Mixxx) on the harbor; "
                                        + "available while it streams.")
                        .positional("mount", STRING, "the mount name: 'live' for /live")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .named("user", STRING, "source", "the source client's user")
                        .named("password", STRING, "hackme", "the source client's password")
                        .named(
                                "buffer",
                                NUMBER,
                                2.0,
                                "seconds decoded before the source becomes available")
                        .named(
                                "max",
                                NUMBER,
                                10.0,
                                "seconds kept at most; newer samples past that are dropped")
                        .named(
                                "timeout",
                                NUMBER,
                                10.0,
                                "seconds without data after which a client is dropped")
                        .named(
                                "icy",
                                BOOLEAN,
                                false,
                                "also take Shoutcast v1 (ICY) source clients on port + 1")
                        .named(
                                "auth",
                                FUNCTION,
                                null,
                                "{ user, password -> bool } instead of user: and password:, or "
                                        + "answering [allow: true, username: 'dj1', displayName: 'DJ One'] to name the DJ")
                        .calls("the user", "the password")
                        .named(
                                "onConnect",
                                FUNCTION,
                                null,
                                "called with [user:, username:, displayName:, address:, headers:] "
                                        + "of each admitted client")
                        .calls("the request headers")
                        .named("onDisconnect", FUNCTION, null, "called when the client leaves")
                        .calls()
                        .method(
                                "auth",
                                "live.auth { user, password -> bool or [allow:, username:, displayName:] }: "
                                        + "replaces the user and password check")
                        .method(
                                "onConnect",
                                "live.onConnect { client -> }: called when a source client connects "
                                        + "(client.username, client.displayName, client.address, client.headers...)")
                        .method("onDisconnect", "live.onDisconnect { -> }: called when it leaves")
                        .method("stop", "live.stop(): kicks the connected source client")
                        .method(
                                "isConnected",
                                "live.isConnected(): whether a source client streams now")
                        .method(
                                "connectedClient",
                                "live.connectedClient(): the client's address:port, or null")
                        .method(
                                "status",
                                "live.status(): 'source client connected from <address:port>' or "
                                        + "'no source client connected'")
                        .returns(SOURCE)
                        .create(a -> liveInput(net, a)),
                OperatorSpec.named("harbor.http.register")
                        .doc(
                                "An HTTP endpoint on the harbor: { req -> http.response(...) } (or a string), run on a virtual thread, "
                                        + "never on the event loop; 503 past settings.harbor.handlerTimeout.")
                        .positional(
                                "path",
                                STRING,
                                "the path; ':name' segments are parameters (req.params.name)")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .named("method", STRING, "GET", "the HTTP method")
                        .positional(
                                "handler",
                                FUNCTION,
                                "called with the request; returns http.response(...) or a string")
                        .calls("the request")
                        .returns(NONE)
                        .create(
                                a -> {
                                    UserFunction handler = a.function("handler");
                                    String path = path(a.string("path"));
                                    // The script's code may block (http.post, a database): off the
                                    // event loop.
                                    net.harbor(a.integer("port"))
                                            .addRoute(
                                                    new Route(
                                                                    a.string("method")
                                                                            .toUpperCase(
                                                                                    java.util.Locale
                                                                                            .ROOT),
                                                                    path,
                                                                    req -> answer(handler, req))
                                                            .mayBlock());
                                    return null;
                                }),
                OperatorSpec.named("harbor.http.static")
                        .doc("Serves the files of a directory under a path of the harbor.")
                        .positional("path", STRING, "the path prefix, e.g. '/files'")
                        .positional("dir", STRING, "the directory")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .named(
                                "maxListeners",
                                INTEGER,
                                0,
                                "clients at once (an HLS listener: its address and agent); the next "
                                        + "gets 503 with Retry-After (0: no cap)")
                        .range(0, Integer.MAX_VALUE)
                        .named(
                                "maxListenerDuration",
                                NUMBER,
                                0.0,
                                "seconds a client may fetch from its first request, then 403 (0: no limit)")
                        .range(0, 1e9)
                        .named(
                                "deny",
                                MAP,
                                Map.of(),
                                "[addresses: [...], agents: [...]]: every request refused with 403")
                        .check(DenyList::problem)
                        .named(
                                "admit",
                                FUNCTION,
                                null,
                                "{ client -> true, false or [redirect: url] }: asked about each new client")
                        .calls("the client")
                        .returns(NONE)
                        .create(
                                a -> {
                                    Path dir = Path.of(a.string("dir"));
                                    if (!Files.isDirectory(dir)) {
                                        throw new ScriptException(
                                                "harbor.http.static(): no directory "
                                                        + dir.toAbsolutePath());
                                    }
                                    net.harbor(a.integer("port"))
                                            .addStatic(
                                                    path(a.string("path")),
                                                    dir,
                                                    admission("harbor.http.static", a));
                                    return null;
                                }),
                OperatorSpec.named("harbor.admit.url")
                        .doc(
                                "Icecast's URL listener authentication as an admit: function: each "
                                        + "listener is posted to the URL with Icecast's listener_add "
                                        + "fields and let in when the answer has the header "
                                        + "icecast-auth-user: 1.")
                        .positional("url", STRING, "the auth server's listener_add URL, http(s)")
                        .check(NetOperators::urlProblem)
                        .named(
                                "timeout",
                                NUMBER,
                                5.0,
                                "seconds the server may take; no answer refuses the listener")
                        .range(0.1, 10)
                        .returns(FUNCTION)
                        .create(
                                a ->
                                        new ListenerUrlAuth(
                                                URI.create(a.string("url").strip()),
                                                Duration.ofMillis(
                                                        Math.round(a.number("timeout") * 1000)))),
                OperatorSpec.named("http.response")
                        .doc("An HTTP response for a harbor handler.")
                        .named("status", INTEGER, 200, "the status code")
                        .named(
                                "contentType",
                                STRING,
                                "text/plain; charset=utf-8",
                                "the Content-Type")
                        .named("headers", MAP, Map.of(), "more headers")
                        .named(
                                "data",
                                ANY,
                                "",
                                "the body: a string, bytes, a file path (java.nio.file.Path) or an InputStream")
                        .returns(ANY)
                        .create(
                                a ->
                                        new HttpReply(
                                                a.integer("status"),
                                                a.string("contentType"),
                                                strings(a.map("headers")),
                                                a.value("data"))));
    }

    private static String path(String p) {
        return p.startsWith("/") ? p : "/" + p;
    }

    private static HarborOutput harborOutput(Network net, Arguments a) {
        Map<String, String> icy = new LinkedHashMap<>();
        icy.put("icy-name", a.string("name"));
        if (!a.string("description").isEmpty()) icy.put("icy-description", a.string("description"));
        if (!a.string("genre").isEmpty()) icy.put("icy-genre", a.string("genre"));
        if (!a.string("url").isEmpty()) icy.put("icy-url", a.string("url"));
        int kbps = a.encoder("encoder").bitrate();
        if (kbps > 0) icy.put("icy-br", Integer.toString(kbps));
        icy.put("icy-pub", a.bool("public") ? "1" : "0");
        String path = path(a.string("mount"));
        HarborMount mount;
        try {
            String type = a.encoder("encoder").contentType();
            mount =
                    net.harbor(a.integer("port"))
                            .mount(
                                    path,
                                    type,
                                    () ->
                                            new HarborMount(
                                                    path,
                                                    type,
                                                    a.integer("burst"),
                                                    a.integer("maxBuffer"),
                                                    icy));
        } catch (IllegalArgumentException e) {
            throw new ScriptException("output.harbor(): " + e.getMessage());
        }
        mount.icyHeaders(icy);
        UserFunction connect = a.function("onConnect");
        mount.onConnect(connect == null ? null : s -> connect.call(s.view()));
        UserFunction disconnect = a.function("onDisconnect");
        mount.onDisconnect(disconnect == null ? null : s -> disconnect.call(s.view()));
        UserFunction auth = a.function("auth");
        mount.auth(auth == null ? null : (u, p) -> auth.test(u, p));
        mount.admission(admission("output.harbor", a));
        return new HarborOutput(
                a.encoder("encoder"),
                a.integer("port"),
                mount,
                a.source("source"),
                a.bool("fallible"));
    }

    /**
     * The admission rules of {@code maxListeners:}, {@code maxListenerDuration:}, {@code deny:} and
     * {@code admit:}.
     */
    private static MountAdmission admission(String operator, Arguments a) {
        DenyList deny;
        try {
            deny = DenyList.of(a.map("deny"));
        } catch (IllegalArgumentException e) { // checked when bound; kept for a direct caller
            throw new ScriptException(operator + "(): deny: " + e.getMessage());
        }
        return new MountAdmission(
                a.integer("maxListeners"),
                Math.round(a.number("maxListenerDuration") * 1e9),
                deny,
                a.function("admit"));
    }

    /** What is wrong with {@code v} as an auth server's URL, or null. */
    private static String urlProblem(Object v) {
        String s = String.valueOf(v).strip();
        try {
            URI u = new URI(s);
            String scheme = u.getScheme();
            if (("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))
                    && u.getHost() != null) return null;
        } catch (java.net.URISyntaxException e) {
            // said below
        }
        return "'" + s + "' is no http(s) URL";
    }

    private static IcecastOutput icecast(Network net, Arguments a) {
        IcecastClient client =
                new IcecastClient(
                        sourceTarget(a, a.string("mount")),
                        ClientTls.of("output.icecast", a),
                        onError(a),
                        timeout("output.icecast", a),
                        null);
        return new IcecastOutput(
                a.encoder("encoder"), client, net::vertx, a.source("source"), a.bool("fallible"));
    }

    private static IcecastOutput shoutcast(Network net, Arguments a) {
        int sourcePort =
                a.integer("sourcePort") == 0 ? a.integer("port") + 1 : a.integer("sourcePort");
        if (sourcePort < 1 || sourcePort > 65535) {
            throw new ScriptException(
                    "output.shoutcast(): sourcePort must be a port (1 to 65535), or 0 for port + 1; got "
                            + a.integer("sourcePort"));
        }
        IcecastClient client =
                new IcecastClient(
                        sourceTarget(a, "/"),
                        null,
                        onError(a),
                        timeout("output.shoutcast", a),
                        new ShoutcastProtocol(sourcePort));
        return new IcecastOutput(
                "output.shoutcast",
                a.encoder("encoder"),
                client,
                net::vertx,
                a.source("source"),
                a.bool("fallible"));
    }

    /**
     * The server, credentials and stream description an output.icecast or output.shoutcast sends.
     */
    private static IcecastTarget sourceTarget(Arguments a, String mount) {
        return new IcecastTarget(
                a.string("host"),
                a.integer("port"),
                a.string("user"),
                a.string("password"),
                mount,
                a.encoder("encoder").contentType(),
                a.string("name"),
                a.string("description"),
                a.string("genre"),
                a.string("url"),
                a.bool("public"));
    }

    private static double timeout(String operator, Arguments a) {
        if (a.number("timeout") <= 0) {
            throw new ScriptException(
                    operator + "(): timeout must be above 0 seconds, got " + a.number("timeout"));
        }
        return a.number("timeout");
    }

    /** The script's {@code onError { message -> seconds }}, or null for the default backoff. */
    private static ToDoubleFunction<Throwable> onError(Arguments a) {
        UserFunction onError = a.function("onError");
        return onError == null
                ? null
                : e -> onError.call(e.getMessage()) instanceof Number n ? n.doubleValue() : 5;
    }

    private static LiveInput liveInput(Network net, Arguments a) {
        if (net.decoder() == null) {
            throw new ScriptException(
                    "input.harbor() needs a live decoder, which the ffmpeg plugin provides; "
                            + "it is not installed");
        }
        String user = a.string("user");
        String password = a.string("password");
        UserFunction auth = a.function("auth");
        LiveInput in =
                new LiveInput(
                        a.integer("port"),
                        path(a.string("mount")),
                        net.decoder(),
                        BasicAuth.credentials(user, password),
                        a.number("buffer"),
                        a.number("max"),
                        a.number("timeout"));
        if (auth != null) in.auth((u, p) -> auth.call(u, p));
        UserFunction connect = a.function("onConnect");
        if (connect != null) in.onConnect(h -> connect.call(h));
        UserFunction disconnect = a.function("onDisconnect");
        if (disconnect != null) in.onDisconnect(disconnect::call);
        try {
            net.harbor(a.integer("port")).addIngest(in);
            if (a.bool("icy")) {
                in.icyUser(user);
                net.harbor(a.integer("port")).addIcyIngest(in);
            }
        } catch (IllegalArgumentException e) {
            throw new ScriptException("input.harbor(): " + e.getMessage());
        }
        return in;
    }

    /** What a script's handler answers {@code req}: a 500 where it fails (the host logs why). */
    private static HttpReply answer(UserFunction handler, Object req) {
        return reply(handler.callOr(FAILED, req));
    }

    private static HttpReply reply(Object r) {
        if (r instanceof HttpReply h) return h;
        if (r == FAILED) return HttpReply.text(500, "internal error");
        if (r == null) return new HttpReply(204, null, Map.of(), null);
        return HttpReply.text(200, r.toString());
    }

    private static Map<String, String> strings(Map<?, ?> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }
}
