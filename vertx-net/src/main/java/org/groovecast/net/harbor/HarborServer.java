package org.groovecast.net.harbor;

import io.netty.channel.Channel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.groovecast.net.admission.AdmittedClients;
import org.groovecast.net.admission.MountAdmission;
import org.groovecast.net.harbor.clients.AuthFailures;
import org.groovecast.net.harbor.clients.ConnectionCount;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.clients.TrustedProxies;
import org.groovecast.net.harbor.files.StaticFile;
import org.groovecast.net.harbor.files.StaticFiles;
import org.groovecast.net.harbor.http.ClientAddress;
import org.groovecast.net.harbor.http.Route;
import org.groovecast.net.harbor.sessions.AccessLog;
import org.groovecast.net.harbor.sessions.ListenerSessions;
import org.groovecast.net.listening.ListeningServer;
import org.groovecast.net.runtime.ServerChannels;
import org.groovecast.net.tls.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The harbor on one port, shared by every listener mount, live input and script endpoint declared
 * on it. The server channel is Netty's, bound on Vert.x's own event loops (native epoll): a
 * connection costs its socket and one {@link HarborConnection}, none of a Vert.x NetSocket's
 * per-connection machinery, which halves what a request with {@code Connection: close} costs.
 * Requests are parsed by {@link HarborConnection}.
 */
public final class HarborServer implements ListeningServer {
    private static final Logger log = LoggerFactory.getLogger(HarborServer.class);

    /** A route that matched, with its captured parameters. */
    record Match(Route route, Map<String, String> params) {}

    private final int port;
    private final String bind;
    private final int maxBody;
    // What requests see: replaced as a whole when a (re)loaded script's declarations take effect.
    private volatile Map<String, HarborMount> mounts = Map.of();
    private volatile Map<String, HarborIngest> ingests = Map.of();
    private volatile List<Route> routes = List.of();
    private volatile Map<String, StaticFiles> statics = Map.of();
    // What the script being loaded declares; committed when its station starts.
    private final Map<String, HarborMount> nextMounts = new ConcurrentHashMap<>();
    private final Map<String, HarborIngest> nextIngests = new ConcurrentHashMap<>();
    private final List<Route> nextRoutes = new CopyOnWriteArrayList<>();
    private final Map<String, StaticFiles> nextStatics = new ConcurrentHashMap<>();

    /**
     * The live input Shoutcast v1 (ICY) source clients reach on port + 1, if one asked for them
     * ({@code icy: true}).
     */
    private volatile HarborIngest icy;

    private volatile HarborIngest nextIcy;
    private volatile Channel icyServer;
    private final Set<Route> failedOnce = ConcurrentHashMap.newKeySet();
    private final ConnectionCount connections;
    private final AuthFailures authFailures;
    private volatile HarborLimits limits = HarborLimits.DEFAULT;
    private volatile TrustedProxies trustedProxies = TrustedProxies.NONE;
    private final ListenerSessions sessions = new ListenerSessions();
    private volatile String adminPassword = "";
    private volatile String serverId = "Groovecast";
    private final long startedAt = System.currentTimeMillis();
    private final java.util.concurrent.atomic.AtomicLong filesServed =
            new java.util.concurrent.atomic.AtomicLong();
    private io.netty.util.concurrent.ScheduledFuture<?> sweeper;

    /**
     * Where the script's code called for a connection (logins, handlers) runs: a virtual thread
     * each.
     */
    private volatile java.util.concurrent.Executor callbacks = OffLoopCall.VIRTUAL_THREADS;

    private volatile Channel server;

    /**
     * The port as several stations of the process share it, and this harbor's station there; null
     * when the harbor has its port to itself.
     */
    private volatile SharedPort shared;

    private volatile String station;

    /**
     * TLS on the port ({@code harbor.tls}), or null for plain HTTP; read by each new connection.
     */
    private volatile ServerTls tls;

    private volatile ServerTls nextTls;

    public HarborServer(int port, String bind, int maxBody) {
        this.port = port;
        this.bind = bind;
        this.maxBody = maxBody;
        this.connections = new ConnectionCount(port);
        this.authFailures = new AuthFailures(port);
    }

    /**
     * What the port accepts from now on (a reloaded script's settings apply to new connections and
     * requests).
     */
    public void limits(HarborLimits limits) {
        this.limits = limits;
    }

    HarborLimits limits() {
        return limits;
    }

    /**
     * The proxies whose {@code X-Forwarded-For} and {@code Forwarded} name the client from now on
     * ({@code settings.harbor.trustedProxies}); see {@link ClientAddress}.
     */
    public void trustedProxies(TrustedProxies proxies) {
        this.trustedProxies = proxies;
    }

    TrustedProxies trustedProxies() {
        return trustedProxies;
    }

    /** The listener sessions of the port's mounts and HLS clients. */
    ListenerSessions sessions() {
        return sessions;
    }

    /** Writes a line per finished listener session, or not ({@code settings.harbor.accessLog}). */
    public void accessLog(AccessLog log) {
        sessions.accessLog(log);
    }

    /**
     * The password of Icecast's admin views on this port ({@code settings.harbor.adminPassword},
     * user {@code admin}); empty: every admin request is refused.
     */
    public void adminPassword(String password) {
        adminPassword = password == null ? "" : password;
    }

    String adminPassword() {
        return adminPassword;
    }

    /** How the admin views name the server ({@code server_id}: the engine and its version). */
    public void serverId(String id) {
        serverId = id;
    }

    String serverId() {
        return serverId;
    }

    /** When the port was made (epoch milliseconds); a reload keeps it. */
    long startedAt() {
        return startedAt;
    }

    /** Static files served so far (Icecast's {@code file_connections}). */
    long filesServed() {
        return filesServed.get();
    }

    void fileServed() {
        filesServed.incrementAndGet();
    }

    /**
     * Whether {@code prefix} is a static folder's ({@code /hls}): HLS clients are its listeners.
     */
    boolean isStaticFolder(String prefix) {
        return statics.containsKey(prefix);
    }

    ConnectionCount connections() {
        return connections;
    }

    java.util.concurrent.Executor callbacks() {
        return callbacks;
    }

    /**
     * For tests on an EmbeddedChannel, whose loop only the test's thread may run: callbacks inline.
     */
    void callbacks(java.util.concurrent.Executor callbacks) {
        this.callbacks = callbacks;
    }

    AuthFailures authFailures() {
        return authFailures;
    }

    /** Connections open on the port now, listeners and DJs included. */
    public int openConnections() {
        return connections.total();
    }

    public int port() {
        return port;
    }

    /** One of the harbors of {@code station} on a port shared with other stations. */
    void sharedOn(SharedPort port, String station) {
        this.shared = port;
        this.station = station;
    }

    /** The station whose harbor this is on a shared port, or null. */
    String station() {
        return station;
    }

    /**
     * The stations serving this port, in the process's order, when several stations share it; else
     * empty.
     */
    public List<String> sharedWith() {
        SharedPort p = shared;
        return p == null ? List.of() : p.stations();
    }

    /** What declarations lock: the shared port, so that two stations' claims do not cross. */
    private Object claims() {
        SharedPort p = shared;
        return p != null ? p : this;
    }

    int maxBody() {
        return maxBody;
    }

    /**
     * The listener mount at {@code path} for the script being loaded: the one already serving
     * listeners there if there is one of the same content type (a reload keeps them connected),
     * else {@code created}. The path must not be declared twice by the same script.
     */
    public HarborMount mount(
            String path, String contentType, java.util.function.Supplier<HarborMount> created) {
        synchronized (claims()) {
            claim(path);
            HarborMount m = mounts.get(path);
            // Listeners of an MP3 stream cannot be handed Ogg: a new format means a new mount.
            if (m == null || !m.contentType().equals(contentType)) m = created.get();
            nextMounts.put(path, m);
            return m;
        }
    }

    public void addIngest(HarborIngest ingest) {
        synchronized (claims()) {
            claim(ingest.path());
            nextIngests.put(ingest.path(), ingest);
        }
    }

    /**
     * Shoutcast v1 source clients connecting to port + 1 stream to {@code ingest} (added with
     * {@link #addIngest} too); one live input per port may take them, the protocol naming no mount.
     */
    public void addIcyIngest(HarborIngest ingest) {
        synchronized (claims()) {
            SharedPort p = shared;
            if (p != null) p.checkIcyFree(this);
            addIcy(ingest);
        }
    }

    private void addIcy(HarborIngest ingest) {
        HarborIngest other = nextIcy;
        if (other != null && other != ingest) {
            throw new IllegalArgumentException(
                    "port "
                            + port
                            + " already takes Shoutcast (icy) sources on port "
                            + (port + 1)
                            + " for "
                            + other.path()
                            + "; only one input.harbor per port may have icy: true");
        }
        nextIcy = ingest;
    }

    /** The live input ICY source clients stream to, or null. */
    HarborIngest icyIngest() {
        return icy;
    }

    public void addRoute(Route route) {
        nextRoutes.add(route);
    }

    /** Serves the files under {@code dir} at {@code prefix}/... */
    public void addStatic(String prefix, Path dir) {
        addStatic(prefix, dir, MountAdmission.OPEN);
    }

    /**
     * Serves the files under {@code dir} at {@code prefix}/... to the clients {@code rules} admit
     * (an HLS directory's listeners); a reload that serves the same directory there keeps the
     * clients present.
     */
    public void addStatic(String prefix, Path dir, MountAdmission rules) {
        String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        StaticFiles before = statics.get(p);
        AdmittedClients clients =
                before != null && before.root().equals(dir.toAbsolutePath().normalize())
                        ? before.clients()
                        : new AdmittedClients();
        nextStatics.put(p, new StaticFiles(dir, rules, clients));
    }

    /** The script being loaded serves this port over TLS with {@code t} (null: plain HTTP). */
    public void tls(ServerTls t) {
        nextTls = t;
    }

    /** The TLS the script being loaded declared for the port so far, or null. */
    public ServerTls declaredTls() {
        return nextTls;
    }

    /** The TLS the port serves new connections with now, or null. */
    public ServerTls tls() {
        return tls;
    }

    private void claim(String path) {
        if (nextMounts.containsKey(path) || nextIngests.containsKey(path)) {
            throw new IllegalArgumentException("port " + port + " already has a mount at " + path);
        }
        SharedPort p = shared;
        if (p != null) p.checkFree(this, path);
    }

    /**
     * Whether {@code path} is a mount or live input here, served or declared by the script being
     * loaded (another station of a shared port may not declare it).
     */
    boolean holds(String path) {
        return mounts.containsKey(path)
                || ingests.containsKey(path)
                || nextMounts.containsKey(path)
                || nextIngests.containsKey(path);
    }

    /** The live input taking Shoutcast (icy) sources, served or declared; or null. */
    HarborIngest icyClaim() {
        HarborIngest next = nextIcy;
        return next != null ? next : icy;
    }

    /** A script is about to be loaded: its declarations start from nothing. */
    public void beginLoad() {
        nextMounts.clear();
        nextIngests.clear();
        nextRoutes.clear();
        nextStatics.clear();
        nextTls = null;
        nextIcy = null;
    }

    /**
     * Whether the script being loaded declared a mount, a DJ input, a route or static files here.
     */
    public boolean declaresAnything() {
        return !nextMounts.isEmpty()
                || !nextIngests.isEmpty()
                || !nextRoutes.isEmpty()
                || !nextStatics.isEmpty();
    }

    /** The script failed to load: what is served stays, and is what a next load starts from. */
    public void abortLoad() {
        beginLoad();
        nextMounts.putAll(mounts);
        nextIngests.putAll(ingests);
        nextRoutes.addAll(routes);
        nextStatics.putAll(statics);
        nextTls = tls;
        nextIcy = icy;
        closeIcyUnlessOnAir(); // port + 1 the failed script had bound
    }

    /**
     * Lets port + 1 go if the station on air takes no Shoutcast (icy) sources: a reload bound it
     * for its {@code icy: true} and then failed.
     */
    public Future<Void> closeIcyUnlessOnAir() {
        Channel c = icyServer;
        if (icy != null || c == null) return Future.succeededFuture();
        icyServer = null;
        log.info("harbor: the failed reload's Shoutcast (icy) port {} closed", icyPort());
        return ServerChannels.close(c);
    }

    /**
     * The loaded script's declarations take effect; returns the mount paths kept from before.
     * Mounts it no longer declares close: their listeners, and the chunks they hold.
     */
    public List<String> commit() {
        List<String> kept = new ArrayList<>();
        for (Map.Entry<String, HarborMount> e : mounts.entrySet()) {
            if (nextMounts.get(e.getKey()) == e.getValue()) kept.add(e.getKey());
            else e.getValue().close();
        }
        mounts = Map.copyOf(nextMounts);
        ingests = Map.copyOf(nextIngests);
        routes = List.copyOf(nextRoutes);
        statics = Map.copyOf(nextStatics);
        ServerTls t = nextTls;
        // Connections made before keep the certificate they shook hands with; the next handshake
        // has this one.
        if (t != null && (tls == null || !t.files().sameAs(tls.files())))
            log.info("harbor: port {} serves TLS with {}", port, t);
        else if (t == null && tls != null) log.info("harbor: port {} no longer serves TLS", port);
        tls = t;
        icy = nextIcy;
        if (icy == null && icyServer != null) {
            log.info("harbor: no more Shoutcast (icy) sources on port {}", icyPort());
            ServerChannels.close(icyServer);
            icyServer = null;
        }
        return kept;
    }

    /** Whether the port is bound. */
    public boolean isListening() {
        return server != null;
    }

    /** Listeners connected to the mount at {@code path} now (0 when there is no such mount). */
    public int listeners(String path) {
        HarborMount m = mounts.get(path);
        return m == null ? 0 : m.listeners();
    }

    public java.util.Collection<HarborMount> mounts() {
        return mounts.values();
    }

    HarborMount mount(String path) {
        return mounts.get(path);
    }

    HarborIngest ingest(String path) {
        return ingests.get(path);
    }

    Match route(String method, String path) {
        for (Route r : routes) {
            if (!r.method().equals(method)) continue;
            Map<String, String> params = r.match(path);
            if (params != null) return new Match(r, params);
        }
        return null;
    }

    /**
     * The file a static prefix serves for {@code path}, never outside its directory; null if none.
     * Throws for a path that tries to leave it.
     */
    StaticFile staticFile(String path) throws StaticFiles.Refused {
        for (Map.Entry<String, StaticFiles> e : statics.entrySet()) {
            String prefix = e.getKey();
            if (!path.startsWith(prefix)
                    || path.length() <= prefix.length()
                    || path.charAt(prefix.length()) != '/') continue;
            StaticFile f =
                    e.getValue()
                            .lookup(path.substring(prefix.length() + 1), limits.followSymlinks());
            if (f != null) return f;
        }
        return null;
    }

    /**
     * The served directory, with its prefix, whose admission rules {@code path} falls under (the
     * longest prefix with any), or null when none guards it.
     */
    Map.Entry<String, StaticFiles> guardedStatic(String path) {
        Map.Entry<String, StaticFiles> best = null;
        int bestLength = -1;
        for (Map.Entry<String, StaticFiles> e : statics.entrySet()) {
            String prefix = e.getKey();
            if (e.getValue().admission().isOpen()
                    || prefix.length() <= bestLength
                    || !path.startsWith(prefix + "/")) continue;
            best = e;
            bestLength = prefix.length();
        }
        return best;
    }

    /** The static folder's prefix {@code path} is under ({@code /hls}), or null. */
    String staticFolder(String path) {
        for (String prefix : statics.keySet()) {
            if (path.startsWith(prefix) && path.startsWith("/", prefix.length())) return prefix;
        }
        return null;
    }

    void handlerFailed(Route route, Throwable e) {
        if (failedOnce.add(route)) {
            log.warn(
                    "harbor: handler of {} {} on port {} failed (logged once; answered 500): {}",
                    route.method(),
                    route.pattern(),
                    port,
                    e.toString());
        }
    }

    @Override
    public String protocol() {
        return "harbor";
    }

    /** Its port, or for a port kept across a reload the Shoutcast port a new {@code icy:} needs. */
    @Override
    public boolean needsBinding() {
        return !isListening() || wantsIcyListener();
    }

    /** A reload that bound port + 1 for its {@code icy:} and then failed lets it go. */
    @Override
    public Future<Void> unlisten() {
        return closeIcyUnlessOnAir();
    }

    @Override
    public boolean servesAnything() {
        return declaresAnything();
    }

    /** A port a reload's script no longer names stays bound, serving nothing of the old script. */
    @Override
    public boolean keptWhenUndeclared() {
        return true;
    }

    @Override
    public void discard() {
        leavePort();
    }

    /** Its mounts kept are reported as their outputs: nothing more to say. */
    @Override
    public List<String> commitLoad() {
        commit();
        return List.of();
    }

    /** Binds the port on the address it was made with; fails when it is taken. */
    public Future<Void> listen(Vertx vertx) {
        return listen(vertx, bind);
    }

    /**
     * Binds the port on {@code address} ({@code settings.harbor.bind} as the script left it); for a
     * port listening already (kept across a reload), port + 1 if a new {@code icy:} needs it. Fails
     * when a port is taken.
     */
    @Override
    public Future<Void> listen(Vertx vertx, String address) {
        return isListening() ? bindIcy(vertx, address) : bindPort(vertx, address);
    }

    /** {@link #listenIcy}, its failure naming the port + 1 it could not bind. */
    private Future<Void> bindIcy(Vertx vertx, String address) {
        return listenIcy(vertx, address)
                .recover(
                        e ->
                                Future.failedFuture(
                                        new IllegalStateException(
                                                "Shoutcast (icy) port "
                                                        + icyPort()
                                                        + ": "
                                                        + e.getMessage(),
                                                e)));
    }

    private Future<Void> bindPort(Vertx vertx, String address) {
        SharedPort p = shared;
        Future<Channel> bound =
                p != null
                        ? p.listen(this, vertx, address)
                        : ServerChannels.bind(vertx, address, port, b -> {}, this::connection);
        return bound.compose(
                        ch -> {
                            server = ch;
                            // HLS clients have no connection to close: their sessions end when
                            // they stop asking, which a look once a second finds.
                            sweeper =
                                    ch.eventLoop()
                                            .scheduleAtFixedRate(
                                                    () -> sessions.sweep(System.nanoTime()),
                                                    1,
                                                    1,
                                                    java.util.concurrent.TimeUnit.SECONDS);
                            if (!wantsIcyListener()) return Future.succeededFuture(ch);
                            // Port + 1 could not be bound: the port goes too, the failure says why.
                            return bindIcy(vertx, address)
                                    .map(v -> ch)
                                    .recover(
                                            e ->
                                                    unbind(ch)
                                                            .compose(
                                                                    v -> {
                                                                        server = null;
                                                                        return Future.failedFuture(
                                                                                e);
                                                                    }));
                        })
                .map(
                        ch -> {
                            if (p == null) {
                                log.info(
                                        "harbor: listening on {}:{} ({})",
                                        address,
                                        actualPort(),
                                        String.join(", ", describe()));
                            } else {
                                log.info(
                                        "harbor: listening on {}:{} for station {} ({}), the port"
                                                + " shared by {}",
                                        address,
                                        actualPort(),
                                        station,
                                        String.join(", ", describe()),
                                        String.join(", ", p.stations()));
                            }
                            long fds = ServerChannels.maxFileDescriptors();
                            if (fds > 0 && fds < limits.maxConnections() + 1024L) {
                                log.warn(
                                        "harbor: the process may open {} files, too few for settings.harbor.maxConnections = {} and the "
                                                + "rest; raise it (ulimit -n, LimitNOFILE=) or lower the setting",
                                        fds,
                                        limits.maxConnections());
                            }
                            return null;
                        });
    }

    /** Lets the port go: closes it, or leaves it to the other stations sharing it. */
    private Future<Void> unbind(Channel ch) {
        SharedPort p = shared;
        if (p == null) return ServerChannels.close(ch);
        server = null;
        return p.leave(this);
    }

    /**
     * The harbor no longer serves the port and is not to (its station's script no longer declares
     * it, or never started): on a shared port, the other stations' claims and socket are theirs
     * alone from now on. Nothing to do on a port of its own.
     */
    public Future<Void> leavePort() {
        SharedPort p = shared;
        if (p == null) return Future.succeededFuture();
        server = null;
        return p.leave(this);
    }

    /** A new connection's handler: the harbor's, behind TLS when the port serves it. */
    private io.netty.channel.ChannelHandler connection() {
        ServerTls t = tls;
        HarborConnection c = new HarborConnection(this);
        return t == null ? c : t.around(c);
    }

    /**
     * Whether the script being loaded, or the one on air, takes ICY sources but port + 1 is not
     * bound yet.
     */
    public boolean wantsIcyListener() {
        return icyServer == null && (nextIcy != null || icy != null);
    }

    /**
     * Port + 1, where Shoutcast v1 sources connect (as they do to a Shoutcast server, and to
     * Icecast's compatible socket).
     */
    public int icyPort() {
        return actualPort() + 1;
    }

    /**
     * Binds port + 1 for Shoutcast v1 (ICY) source clients; on the event loops, with this port's
     * limits.
     */
    public Future<Void> listenIcy(Vertx vertx, String address) {
        int icyPort = icyPort();
        return ServerChannels.bind(
                        vertx, address, icyPort, b -> {}, () -> new IcySourceConnection(this))
                .map(
                        ch -> {
                            icyServer = ch;
                            HarborIngest in = nextIcy != null ? nextIcy : icy;
                            log.info(
                                    "harbor: listening on {}:{} for Shoutcast (icy) source clients of {}",
                                    address,
                                    icyPort,
                                    in == null ? "-" : in.path());
                            return null;
                        });
    }

    /** The port actually bound (differs from {@link #port()} when that was 0). */
    public int actualPort() {
        return server == null ? port : ((InetSocketAddress) server.localAddress()).getPort();
    }

    private List<String> describe() {
        List<String> d = new ArrayList<>();
        mounts.keySet().forEach(m -> d.add("mount " + m));
        ingests.keySet().forEach(m -> d.add("live input " + m));
        routes.forEach(r -> d.add(r.method() + " " + r.pattern()));
        statics.keySet().forEach(p -> d.add("files " + p + "/"));
        return d;
    }

    /**
     * Stops accepting and closes the mounts (their listeners, and the chunks they hold, let go
     * while the event loops still run); other open connections are closed by the runtime before its
     * loops stop (Network.close). On a port shared with other stations, their mounts and
     * connections stay and the socket with them; it closes when the last of them leaves.
     */
    public Future<Void> close() {
        if (sweeper != null) sweeper.cancel(false);
        sessions.endAllHls();
        Channel icyChannel = icyServer;
        icyServer = null;
        List<CompletableFuture<Void>> released = new ArrayList<>();
        for (HarborMount m : mounts.values()) released.add(m.close());
        return Future.fromCompletionStage(
                        CompletableFuture.allOf(released.toArray(CompletableFuture[]::new)))
                .compose(v -> ServerChannels.close(icyChannel))
                .compose(v -> shared != null ? leavePort() : ServerChannels.close(server));
    }
}
