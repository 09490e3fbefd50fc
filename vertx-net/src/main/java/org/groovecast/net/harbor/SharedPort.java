package org.groovecast.net.harbor;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.groovecast.net.harbor.files.StaticFiles;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.runtime.ServerChannels;
import org.groovecast.net.tls.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One harbor port that several stations of a process declared: one listening socket, each station's
 * {@link HarborServer} serving its own mounts, live inputs and routes on it. A mount or live input
 * path is one station's on the port (a second station declaring it is refused where it does, see
 * {@link #checkFree}); a request goes to the station that owns its path, and what no station owns
 * (the status page, {@code /metrics}, a route or files several declare) to the first station that
 * serves it, in the process's order of stations. The socket binds when the first station starts and
 * closes when the last one leaves; a connection is admitted under the first station's limits and
 * TLS.
 *
 * <p>Locks: {@link HarborPorts}' before this one's; a harbor's declarations take this one's (so
 * that two stations' claims of one path cannot both pass).
 */
final class SharedPort {
    private static final Logger log = LoggerFactory.getLogger(SharedPort.class);
    private static final HarborServer[] NONE = new HarborServer[0];

    private record Member(HarborServer harbor, String station, int rank, long joined) {}

    private final int port;
    private final HarborPorts ports;
    private final List<Member> members = new ArrayList<>();

    /** The members whose station listens (started), in the process's order: what requests see. */
    private volatile HarborServer[] serving = NONE;

    /** Which members listen; a subset of {@link #members}. */
    private final List<HarborServer> listening = new ArrayList<>();

    /** The socket's bind, under way or done; null while none listens. */
    private Future<Channel> binding;

    private String address;

    /** The last socket's close: a new bind waits for it (its address is not free before). */
    private Future<Void> closing = Future.succeededFuture();

    /** A connection accepted while the last station leaves is this one's (its mounts are gone). */
    private volatile HarborServer lastServing;

    private long joins;

    SharedPort(int port, HarborPorts ports) {
        this.port = port;
        this.ports = ports;
    }

    int port() {
        return port;
    }

    /** {@code harbor} is {@code station}'s on this port from now on (it listens once started). */
    synchronized void add(HarborServer harbor, String station, int rank) {
        members.add(new Member(harbor, station, rank, joins++));
        members.sort(Comparator.comparingInt(Member::rank).thenComparingLong(Member::joined));
        harbor.sharedOn(this, station);
    }

    /**
     * Throws naming the station whose mount or live input {@code path} is on this port, unless it
     * is {@code claimant}'s own; what its script is loading counts as well as what it serves.
     */
    synchronized void checkFree(HarborServer claimant, String path) {
        String mine = claimant.station();
        for (Member m : members) {
            if (m.harbor() == claimant || m.station().equals(mine)) continue;
            if (m.harbor().holds(path)) {
                throw new IllegalArgumentException(
                        "port "
                                + port
                                + " already has a mount at "
                                + path
                                + ", station "
                                + m.station()
                                + "'s: stations of one process share a port only with mounts of"
                                + " their own");
            }
        }
    }

    /** Throws when another station takes Shoutcast (icy) sources on port + 1 already. */
    synchronized void checkIcyFree(HarborServer claimant) {
        for (Member m : members) {
            if (m.harbor() == claimant || m.station().equals(claimant.station())) continue;
            HarborIngest other = m.harbor().icyClaim();
            if (other != null) {
                throw new IllegalArgumentException(
                        "port "
                                + port
                                + " already takes Shoutcast (icy) sources on port "
                                + (port + 1)
                                + " for station "
                                + m.station()
                                + "'s "
                                + other.path()
                                + "; only one input.harbor per port may have icy: true");
            }
        }
    }

    /**
     * {@code harbor}'s station starts serving here: binds the socket if none of the port's stations
     * listens yet, else joins it. Fails on another address or TLS than the socket's stations.
     */
    Future<Channel> listen(HarborServer harbor, Vertx vertx, String at) {
        Future<Channel> bound;
        synchronized (this) {
            if (member(harbor) == null)
                return Future.failedFuture(
                        new IllegalStateException("the station left port " + port));
            if (!listening.isEmpty() && !listening.contains(harbor)) {
                HarborServer first = listening.getFirst();
                if (!address.equals(at)) {
                    return Future.failedFuture(
                            new IllegalStateException(
                                    "station "
                                            + first.station()
                                            + " listens on "
                                            + address
                                            + ":"
                                            + port
                                            + "; stations sharing a port listen on one address"
                                            + " (settings.harbor.bind)"));
                }
                if (!sameTls(first.tls(), harbor.declaredTls())) {
                    return Future.failedFuture(
                            new IllegalStateException(
                                    "station "
                                            + first.station()
                                            + " serves port "
                                            + port
                                            + (first.tls() == null
                                                    ? " without TLS"
                                                    : " with TLS " + first.tls())
                                            + "; stations sharing a port declare the same TLS"));
                }
            }
            if (!listening.contains(harbor)) listening.add(harbor);
            refresh();
            if (binding == null) {
                address = at;
                binding =
                        closing.compose(
                                v ->
                                        ServerChannels.bind(
                                                vertx, at, port, b -> {}, this::connection));
            }
            bound = binding;
        }
        Future<Channel> ours = bound;
        return ours.recover(
                e -> {
                    synchronized (this) {
                        listening.remove(harbor);
                        refresh();
                        if (binding == ours) binding = null;
                    }
                    return Future.failedFuture(e);
                });
    }

    /**
     * {@code harbor}'s station leaves the port (it stopped, or its script no longer loads): the
     * socket closes if it was the last to listen, and the port is forgotten if it was the last to
     * declare it. Its mounts are the harbor's to close.
     */
    Future<Void> leave(HarborServer harbor) {
        synchronized (ports) {
            synchronized (this) {
                Member m = member(harbor);
                if (m == null) return Future.succeededFuture();
                members.remove(m);
                boolean listened = listening.remove(harbor);
                refresh();
                Future<Void> closed = Future.succeededFuture();
                if (listened && listening.isEmpty() && binding != null) {
                    Future<Channel> b = binding;
                    binding = null;
                    closing =
                            b.transform(
                                    ar ->
                                            ar.succeeded()
                                                    ? ServerChannels.close(ar.result())
                                                    : Future.<Void>succeededFuture());
                    closed = closing;
                } else if (listened) {
                    log.info(
                            "harbor: station {} left port {}; {} still served there",
                            m.station(),
                            port,
                            String.join(", ", stations()));
                }
                if (members.isEmpty()) ports.forget(this);
                return closed;
            }
        }
    }

    /** The stations listening here, in the process's order. */
    synchronized List<String> stations() {
        List<String> names = new ArrayList<>();
        for (HarborServer h : serving) names.add(h.station());
        return names;
    }

    private Member member(HarborServer harbor) {
        for (Member m : members) if (m.harbor() == harbor) return m;
        return null;
    }

    private void refresh() {
        List<HarborServer> s = new ArrayList<>();
        for (Member m : members) if (listening.contains(m.harbor())) s.add(m.harbor());
        serving = s.toArray(NONE);
        if (!s.isEmpty()) lastServing = s.getFirst();
    }

    private static boolean sameTls(ServerTls a, ServerTls b) {
        return a == null ? b == null : b != null && a.files().sameAs(b.files());
    }

    /**
     * A new connection's handler: admitted under the first station's limits, behind the port's TLS
     * (the stations' one, see {@link #listen}: the first that serves it, since a station joining in
     * a reload serves its own only once the reload takes over).
     */
    private ChannelHandler connection() {
        HarborServer[] s = serving;
        HarborServer first = s.length > 0 ? s[0] : lastServing;
        HarborConnection c = new HarborConnection(first, this);
        ServerTls t = null;
        for (int i = 0; i < s.length && t == null; i++) t = s[i].tls();
        return t == null ? c : t.around(c);
    }

    /**
     * The station's harbor that answers {@code head}: the one whose mount or live input its path is
     * (or, for {@code /admin.cgi}, its {@code mount} parameter, or the one taking Shoutcast sources
     * when it names none); else the first, in the process's order, with a route or files for it, or
     * with the mount its {@code .m3u} or {@code .pls} is of; else the first station's. {@code
     * /admin/metadata} names its mount in a form body too: {@link HarborConnection#serveMount}
     * picks its station once that is read.
     */
    HarborServer serverFor(RequestHead head) {
        HarborServer[] s = serving;
        if (s.length == 0) return lastServing;
        if (s.length == 1) return s[0];
        String path = head.path();
        String owned = path;
        if (path.equals(AdminCgi.PATH)) {
            String mount = head.query().get("mount");
            if (mount == null || mount.isEmpty()) {
                for (HarborServer h : s) if (h.icyIngest() != null) return h;
                return s[0];
            }
            owned = mount.startsWith("/") ? mount : "/" + mount;
        } else if (path.equals(TitleUpdates.ADMIN_METADATA)) {
            String mount = head.query().getOrDefault("mount", "");
            owned = mount.startsWith("/") ? mount : "/" + mount;
        }
        HarborServer owner = owner(s, owned);
        if (owner != null) return owner;
        String method = head.method().equals("HEAD") ? "GET" : head.method();
        for (HarborServer h : s) if (h.route(method, path) != null) return h;
        for (HarborServer h : s) {
            try {
                if (h.staticFile(path) != null) return h;
            } catch (StaticFiles.Refused e) {
                return h; // its files, refused: it says why
            }
        }
        if (path.endsWith(".m3u") || path.endsWith(".pls")) {
            String mount = path.substring(0, path.length() - 4);
            for (HarborServer h : s) if (h.mount(mount) != null) return h;
        }
        return s[0];
    }

    /** The station's harbor whose mount or live input {@code path} is, or null. */
    HarborServer owner(String path) {
        return owner(serving, path);
    }

    private static HarborServer owner(HarborServer[] s, String path) {
        for (HarborServer h : s) if (h.mount(path) != null || h.ingest(path) != null) return h;
        return null;
    }
}
