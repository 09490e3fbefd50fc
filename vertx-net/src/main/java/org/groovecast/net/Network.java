package org.groovecast.net;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.groovecast.api.LiveDecoder;
import org.groovecast.net.control.ControlPorts;
import org.groovecast.net.control.TelnetServer;
import org.groovecast.net.harbor.HarborPorts;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.rtmp.RtmpServer;
import org.groovecast.net.runtime.NetRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A station's sockets: the harbor servers its script declared, one per port, its RTMP servers and
 * its telnet control servers, started with the station on a Vert.x of its own (native epoll) and
 * closed with it. A station with no socket starts no Vert.x at all. In a process running many
 * stations a harbor port other stations declare too is one socket, each station serving its own
 * mounts on it ({@link #sharePorts}).
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
    private final Map<Integer, HarborServer> harbors = new TreeMap<>();
    private final Map<Integer, RtmpServer> rtmps = new TreeMap<>();

    /** The RTMP ports the script being loaded declares; the others close when it takes over. */
    private final java.util.Set<Integer> rtmpDeclared = new java.util.HashSet<>();

    private final List<TelnetServer> telnets = new ArrayList<>();

    /** Telnet servers of the script a reload replaces, closed when the new one starts. */
    private final List<TelnetServer> previousTelnets = new ArrayList<>();

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
        if (!harbors.isEmpty())
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

    /** The harbor on {@code port}, created on first use (it listens once the station starts). */
    @Override
    public synchronized HarborServer harbor(int port) {
        return harbors.computeIfAbsent(
                port,
                p ->
                        sharedPorts != null && p != 0
                                ? sharedPorts.harbor(p, bind, maxBody, station)
                                : new HarborServer(p, bind, maxBody));
    }

    /**
     * The RTMP server on {@code port}, created on first use (it listens once the station starts);
     * one already running from before a reload is the one returned, so its publishers and players
     * stay connected.
     */
    public synchronized RtmpServer rtmp(int port, String bind) {
        rtmpDeclared.add(port);
        RtmpServer s = rtmps.get(port);
        if (s != null && !s.bind().equals(bind)) {
            throw new IllegalArgumentException(
                    "port " + port + " already has an RTMP server bound to " + s.bind());
        }
        if (s == null) {
            s = new RtmpServer(port, bind);
            rtmps.put(port, s);
        }
        return s;
    }

    public synchronized List<RtmpServer> rtmpServers() {
        return List.copyOf(rtmps.values());
    }

    /**
     * Adds a telnet server (it listens once the station starts); throws when its port has one
     * already.
     */
    @Override
    public synchronized void addTelnet(TelnetServer telnet) {
        for (TelnetServer t : telnets) {
            if (t.port() == telnet.port() && telnet.port() != 0) {
                throw new IllegalArgumentException(
                        "port " + telnet.port() + " already has a telnet server");
            }
        }
        telnets.add(telnet);
    }

    public synchronized List<TelnetServer> telnets() {
        return List.copyOf(telnets);
    }

    LiveDecoder decoder() {
        return decoder;
    }

    public synchronized List<HarborServer> harbors() {
        return List.copyOf(harbors.values());
    }

    /**
     * Whether the script being loaded serves something here (an RTMP server, a telnet server, a
     * harbor mount, input or route): such a script runs without any output, as a relay or a control
     * endpoint.
     */
    public synchronized boolean servesAnything() {
        if (!rtmpDeclared.isEmpty() || !telnets.isEmpty()) return true;
        for (HarborServer h : harbors.values()) {
            if (h.declaresAnything()) return true;
        }
        return false;
    }

    /** A (re)loaded script is about to declare its mounts, inputs and endpoints. */
    public synchronized void beginLoad() {
        for (HarborServer h : harbors.values()) h.beginLoad();
        for (RtmpServer r : rtmps.values()) r.beginLoad();
        rtmpDeclared.clear();
        // Telnet servers belong to the script that declared them: the new one declares its own.
        previousTelnets.addAll(telnets);
        telnets.clear();
    }

    /** The script being loaded failed: the running one's declarations and telnet servers stay. */
    public synchronized void abortLoad() {
        // Ports only the failed script declared; on a shared port, its claims go with them.
        harbors.values()
                .removeIf(
                        h -> {
                            if (h.isListening()) return false;
                            h.leavePort();
                            return true;
                        });
        for (HarborServer h : harbors.values()) h.abortLoad();
        rtmps.keySet()
                .removeIf(
                        port ->
                                !rtmps.get(port)
                                        .isListening()); // declared by the failed script only
        rtmpDeclared.clear();
        rtmpDeclared.addAll(rtmps.keySet());
        telnets.clear();
        telnets.addAll(previousTelnets);
        previousTelnets.clear();
    }

    /**
     * Makes the loaded script's declarations the served ones; returns the mounts kept from before.
     */
    public synchronized List<String> commit() {
        List<String> kept = new ArrayList<>();
        for (HarborServer h : harbors.values()) {
            for (String m : h.commit()) kept.add(h.port() + m);
        }
        for (var it = rtmps.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (rtmpDeclared.contains(e.getKey())) {
                e.getValue().commit();
                if (e.getValue().isListening()) kept.add("rtmp :" + e.getKey());
            } else {
                closeQuietly(e.getValue()::close);
                it.remove();
            }
        }
        lastKept = kept;
        return kept;
    }

    /** The mounts the last commit kept from before, as port + path. */
    public synchronized List<String> lastKept() {
        return lastKept;
    }

    /**
     * Binds every port not bound yet; throws naming the port when one cannot be bound. In a reload
     * the new ports are bound before the new declarations take effect, and a port that cannot be
     * bound unbinds what this call bound and changes nothing else: the running station keeps its
     * sockets, listeners and event loops (then {@link #abortLoad}).
     */
    public synchronized void start(int eventLoops) {
        if (closed)
            throw new IllegalStateException(
                    "the station's network is closed (the station stopped)");
        this.eventLoops = eventLoops;
        if (harbors.isEmpty() && telnets.isEmpty() && rtmps.isEmpty()) {
            commit();
            return;
        }
        boolean fresh = runtime == null;
        if (fresh) {
            runtime = newRuntime(eventLoops);
            commit(); // nothing served yet: the harbors log what they serve as they bind
        }
        List<Object> bound = new ArrayList<>();
        try {
            for (HarborServer h : harbors.values()) {
                if (!h.isListening())
                    bound.add(listen(h, h.port(), bind, () -> h.listen(runtime.vertx(), bind)));
                // A reload that adds icy: true to a port kept listening binds its port + 1 now.
                else if (h.wantsIcyListener()) {
                    bound.add(
                            new IcyPort(
                                    listen(
                                            h,
                                            h.icyPort(),
                                            bind,
                                            () -> h.listenIcy(runtime.vertx(), bind))));
                }
            }
            for (RtmpServer r : rtmps.values()) {
                if (!r.isListening())
                    bound.add(listen(r, r.port(), r.bind(), () -> r.listen(runtime.vertx())));
            }
            if (!fresh) commit();
            // The script's telnet servers replace the previous script's, most often on the same
            // port.
            for (TelnetServer t : previousTelnets) closeQuietly(t::close);
            previousTelnets.clear();
            for (TelnetServer t : telnets)
                bound.add(listen(t, t.port(), t.bind(), () -> t.listen(runtime.vertx())));
        } catch (IllegalStateException e) {
            unbind(bound, fresh);
            throw e;
        }
    }

    private static <T> T listen(T server, int port, String address, Supplier<Future<?>> listen) {
        try {
            listen.get().await();
            return server;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot listen on port " + port + " (" + address + "): " + e.getMessage(), e);
        }
    }

    /** Port + 1 bound for a harbor that was listening already: undone alone, the harbor kept. */
    private record IcyPort(HarborServer harbor) {}

    /** Undoes a start that could not bind a port: closes and forgets the servers it bound. */
    private void unbind(List<Object> bound, boolean fresh) {
        for (Object server : bound) {
            switch (server) {
                case HarborServer h -> {
                    closeQuietly(h::close);
                    harbors.values().remove(h);
                }
                case RtmpServer r -> {
                    closeQuietly(r::close);
                    rtmps.values().remove(r);
                }
                case TelnetServer t -> {
                    closeQuietly(t::close);
                    telnets.remove(t);
                }
                case IcyPort i -> closeQuietly(i.harbor()::closeIcyUnlessOnAir);
                default -> throw new IllegalArgumentException(server.toString());
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
            for (HarborServer h : harbors.values()) closeQuietly(h::leavePort);
            return;
        }
        for (HarborServer h : harbors.values()) closeQuietly(h::close);
        for (RtmpServer r : rtmps.values()) closeQuietly(r::close);
        for (TelnetServer t : telnets) closeQuietly(t::close);
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
