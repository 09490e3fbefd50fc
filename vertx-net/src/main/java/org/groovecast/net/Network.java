package org.groovecast.net;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.groovecast.api.LiveDecoder;
import org.groovecast.net.control.ControlPorts;
import org.groovecast.net.control.TelnetServer;
import org.groovecast.net.harbor.HarborPorts;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.listening.ListeningServer;
import org.groovecast.net.rtmp.RtmpServer;
import org.groovecast.net.runtime.NetRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A station's sockets: the servers its script declared ({@link ListeningServer}: harbors, RTMP,
 * telnet control), one per port and protocol, started with the station on a Vert.x of its own
 * (native epoll) and closed with it. A station with no socket starts no Vert.x at all. In a process
 * running many stations a harbor port other stations declare too is one socket, each station
 * serving its own mounts on it ({@link #sharePorts}).
 *
 * <p>A reload runs one transaction over all the servers, whatever their protocol: {@link
 * #beginLoad}, then {@link #start} (bind, then {@link #commit}) or {@link #abortLoad}.
 *
 * <p>Closing is final and never waits long: each server gets {@link #CLOSE_WAIT_SECONDS} to let its
 * port go and Vert.x as long to stop its loops, so that a stop cannot hang on a loop that is gone;
 * closing again returns at once, and a closed network starts no Vert.x again.
 */
public final class Network implements AutoCloseable, ControlPorts {
    private static final Logger log = LoggerFactory.getLogger(Network.class);
    static final long CLOSE_WAIT_SECONDS = 2;

    /** Where harbor ports bind; may change until they do (see {@link #bind(String)}). */
    private String bind;

    private final int maxBody;
    private final LiveDecoder decoder;

    /** The servers of the script on air or being loaded, in the order declared. */
    private final List<ListeningServer> servers = new ArrayList<>();

    /**
     * Servers a reload replaces rather than carries (not {@link ListeningServer#carried}): the
     * running script's, closed when the new script's own start, restored if it fails.
     */
    private final List<ListeningServer> replaced = new ArrayList<>();

    /** The servers the script being loaded (outside a load: the script on air) declares. */
    private final Set<ListeningServer> declared =
            Collections.newSetFromMap(new IdentityHashMap<>());

    private NetRuntime runtime;

    /**
     * The process's Vert.x when stations share one ({@link #useRuntime}): used instead of starting
     * one, and never closed here.
     */
    private Supplier<NetRuntime> sharedRuntime;

    /**
     * The process's harbor ports when its stations share them ({@link #sharePorts}), and this
     * network's station there; null: each port this network's own.
     */
    private HarborPorts sharedPorts;

    private String station;

    private int eventLoops = 1;
    private List<String> lastKept = List.of();
    private boolean closed;

    /**
     * @param bind address the harbor ports listen on
     * @param maxBody largest request body accepted (413 past it)
     * @param decoder the live stream decoder a plugin provides, or null when none is installed
     */
    public Network(String bind, int maxBody, LiveDecoder decoder) {
        this.bind = bind;
        this.maxBody = maxBody;
        this.decoder = decoder;
    }

    /**
     * Runs this network on what {@code shared} gives when first needed (the event loops of a
     * process running many stations) rather than on a Vert.x of its own; closing the network leaves
     * it running. Before {@link #start}.
     */
    public synchronized void useRuntime(Supplier<NetRuntime> shared) {
        sharedRuntime = shared;
    }

    /**
     * Declares this network's harbor ports (but port 0) on the process's {@code ports}, as station
     * {@code station}: a port another station of the process declares too is one socket, each
     * station serving its own mounts on it (see {@link HarborPorts}). Before any harbor is made.
     */
    public synchronized void sharePorts(HarborPorts ports, String station) {
        if (!harbors().isEmpty())
            throw new IllegalStateException("harbor ports are shared from the start or never");
        this.sharedPorts = ports;
        this.station = station;
    }

    private NetRuntime newRuntime(int eventLoops) {
        return sharedRuntime != null ? sharedRuntime.get() : NetRuntime.start(eventLoops);
    }

    private void closeRuntime() {
        if (sharedRuntime == null) runtime.close(CLOSE_WAIT_SECONDS);
        runtime = null;
    }

    /**
     * Where the harbor ports that do not listen yet will listen: {@code settings.harbor.bind} as
     * the script left it, known only once it ran (the network exists before, for the script to
     * declare its ports on). Ports already listening (kept across a reload) stay where they are.
     */
    public synchronized void bind(String address) {
        bind = address;
    }

    // ---------------------------------------------------------------- declaring servers

    /**
     * Declares the server of {@code kind} on {@code port} for the script being loaded: the one
     * running already if a reload carries it (its connections stay), else a new one from {@code
     * make}, which listens once the station starts. How a protocol's operator declares its server:
     * nothing else here knows the protocol.
     */
    public synchronized <T extends ListeningServer> T declare(
            Class<T> kind, int port, Supplier<T> make) {
        T s = find(kind, port);
        if (s != null && !s.carried()) {
            // Not carried: the script being loaded declared this one itself.
            if (port != 0)
                throw new IllegalArgumentException(
                        "port " + port + " already has a " + s.protocol() + " server");
            s = null;
        }
        if (s == null) {
            s = make.get();
            servers.add(s);
        }
        declared.add(s);
        return s;
    }

    /** The harbor on {@code port}, created on first use (it listens once the station starts). */
    @Override
    public synchronized HarborServer harbor(int port) {
        return declare(
                HarborServer.class,
                port,
                () ->
                        sharedPorts != null && port != 0
                                ? sharedPorts.harbor(port, bind, maxBody, station)
                                : new HarborServer(port, bind, maxBody));
    }

    /**
     * The RTMP server on {@code port}, created on first use (it listens once the station starts);
     * one already running from before a reload is the one returned, so its publishers and players
     * stay connected.
     */
    public synchronized RtmpServer rtmp(int port, String bind) {
        RtmpServer s = find(RtmpServer.class, port);
        if (s != null && !s.bind().equals(bind)) {
            throw new IllegalArgumentException(
                    "port " + port + " already has an RTMP server bound to " + s.bind());
        }
        return declare(RtmpServer.class, port, () -> new RtmpServer(port, bind));
    }

    /**
     * Adds a telnet server (it listens once the station starts); throws when its port has one
     * already.
     */
    @Override
    public synchronized void addTelnet(TelnetServer telnet) {
        declare(TelnetServer.class, telnet.port(), () -> telnet);
    }

    private <T extends ListeningServer> T find(Class<T> kind, int port) {
        for (ListeningServer s : servers) {
            if (kind.isInstance(s) && s.port() == port) return kind.cast(s);
        }
        return null;
    }

    private <T extends ListeningServer> List<T> all(Class<T> kind) {
        List<T> r = new ArrayList<>();
        for (ListeningServer s : servers) if (kind.isInstance(s)) r.add(kind.cast(s));
        return r;
    }

    /** Every server, of every protocol: what status and metrics show. */
    public synchronized List<ListeningServer> servers() {
        return List.copyOf(servers);
    }

    public synchronized List<HarborServer> harbors() {
        List<HarborServer> h = all(HarborServer.class);
        h.sort(Comparator.comparingInt(HarborServer::port));
        return List.copyOf(h);
    }

    public synchronized List<RtmpServer> rtmpServers() {
        List<RtmpServer> r = all(RtmpServer.class);
        r.sort(Comparator.comparingInt(RtmpServer::port));
        return List.copyOf(r);
    }

    public synchronized List<TelnetServer> telnets() {
        return List.copyOf(all(TelnetServer.class));
    }

    LiveDecoder decoder() {
        return decoder;
    }

    /**
     * Whether the script being loaded serves something here (an RTMP server, a telnet server, a
     * harbor mount, input or route): such a script runs without any output, as a relay or a control
     * endpoint.
     */
    public synchronized boolean servesAnything() {
        for (ListeningServer s : servers)
            if (declared.contains(s) && s.servesAnything()) return true;
        return false;
    }

    // ---------------------------------------------------------------- the reload transaction

    /** A (re)loaded script is about to declare what it serves. */
    public synchronized void beginLoad() {
        for (ListeningServer s : servers) {
            if (s.carried()) s.beginLoad();
            else replaced.add(s); // the new script declares its own
        }
        servers.removeAll(replaced);
        declared.clear();
    }

    /** The script being loaded failed: the running one's declarations and servers stay. */
    public synchronized void abortLoad() {
        // Servers only the failed script declared were never bound: on a shared port, its claims
        // go with them.
        servers.removeIf(
                s -> {
                    if (s.isListening()) return false;
                    s.discard();
                    return true;
                });
        for (ListeningServer s : servers) s.abortLoad();
        servers.addAll(replaced);
        replaced.clear();
        declared.clear();
        declared.addAll(servers); // as the script on air declared them
    }

    /**
     * Makes the loaded script's declarations the served ones; returns what kept its connections, as
     * the reload's report lists it. A carried server the script no longer declares closes.
     */
    public synchronized List<String> commit() {
        List<String> kept = new ArrayList<>();
        for (var it = servers.iterator(); it.hasNext(); ) {
            ListeningServer s = it.next();
            if (declared.contains(s) || s.keptWhenUndeclared()) {
                kept.addAll(s.commitLoad());
            } else {
                closeQuietly(s::close);
                it.remove();
            }
        }
        lastKept = kept;
        return kept;
    }

    /** What the last commit kept with its connections, as the reload's report lists it. */
    public synchronized List<String> lastKept() {
        return lastKept;
    }

    /**
     * Binds every port not bound yet; throws naming the port when one cannot be bound. In a reload
     * the new ports are bound before the new declarations take effect, and a port that cannot be
     * bound unbinds what this call bound and changes nothing else: the running station keeps its
     * sockets, listeners and event loops (then {@link #abortLoad}). Servers a reload replaces bind
     * after those it carries, once the ones they replace let their ports go.
     */
    public synchronized void start(int eventLoops) {
        if (closed)
            throw new IllegalStateException(
                    "the station's network is closed (the station stopped)");
        this.eventLoops = eventLoops;
        if (servers.isEmpty() && replaced.isEmpty()) {
            commit();
            return;
        }
        boolean fresh = runtime == null;
        if (fresh) {
            runtime = newRuntime(eventLoops);
            commit(); // nothing served yet: the servers log what they serve as they bind
        }
        List<Bound> bound = new ArrayList<>();
        try {
            bindAll(ListeningServer::carried, bound);
            if (!fresh) commit();
            for (ListeningServer s : replaced) closeQuietly(s::close);
            replaced.clear();
            bindAll(s -> !s.carried(), bound);
        } catch (IllegalStateException e) {
            unbind(bound, fresh);
            throw e;
        }
    }

    /** A server this start bound something of, and whether it listened before. */
    private record Bound(ListeningServer server, boolean wasListening) {}

    private void bindAll(Predicate<ListeningServer> which, List<Bound> bound) {
        for (ListeningServer s : List.copyOf(servers)) {
            if (!which.test(s) || !s.needsBinding()) continue;
            boolean was = s.isListening();
            try {
                s.listen(runtime.vertx(), bind).await();
            } catch (Exception e) {
                throw new IllegalStateException(
                        "cannot listen on port "
                                + s.port()
                                + " ("
                                + s.bindAddress(bind)
                                + "): "
                                + e.getMessage(),
                        e);
            }
            bound.add(new Bound(s, was));
        }
    }

    /** Undoes a start that could not bind a port: closes and forgets the servers it bound. */
    private void unbind(List<Bound> bound, boolean fresh) {
        for (Bound b : bound) {
            if (b.wasListening()) {
                closeQuietly(b.server()::unlisten); // what this start added to a kept server
            } else {
                closeQuietly(b.server()::close);
                servers.remove(b.server());
                declared.remove(b.server());
            }
        }
        if (fresh) closeRuntime();
    }

    /**
     * The station's Vert.x, started on first use (an output that only connects out needs no port).
     */
    public synchronized Vertx vertx() {
        if (closed)
            throw new IllegalStateException(
                    "the station's network is closed (the station stopped)");
        if (runtime == null) runtime = newRuntime(eventLoops);
        return runtime.vertx();
    }

    /**
     * Closes every server and the Vert.x under them; idempotent, and bounded in time (see the class
     * comment).
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (runtime == null) {
            // Never started, or a start undone: what it declared on shared ports is let go.
            for (ListeningServer s : servers) s.discard();
            return;
        }
        for (ListeningServer s : servers) closeQuietly(s::close);
        closeRuntime();
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    private static void closeQuietly(Supplier<Future<Void>> close) {
        try {
            close.get().await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            log.warn("network: a server did not close within {} s; going on", CLOSE_WAIT_SECONDS);
        } catch (Exception e) {
            // closing anyway
        }
    }
}
