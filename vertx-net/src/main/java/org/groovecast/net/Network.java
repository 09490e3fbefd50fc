package org.groovecast.net;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.groovecast.api.LiveDecoder;
import org.groovecast.net.control.TelnetServer;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.rtmp.RtmpServer;

/**
 * A station's sockets: the harbor servers its script declared, one per port, its RTMP servers
 * and its telnet control servers, started with the station on a Vert.x of its own (native epoll) and closed with
 * it. A station with no socket starts no Vert.x at all.
 */
public final class Network implements AutoCloseable {
    private final String bind;
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
    private int eventLoops = 1;
    private List<String> lastKept = List.of();

    /**
     * @param bind    address the harbor ports listen on
     * @param maxBody largest request body accepted (413 past it)
     * @param decoder the live stream decoder a plugin provides, or null when none is installed
     */
    public Network(String bind, int maxBody, LiveDecoder decoder) {
        this.bind = bind;
        this.maxBody = maxBody;
        this.decoder = decoder;
    }

    /** The harbor on {@code port}, created on first use (it listens once the station starts). */
    public synchronized HarborServer harbor(int port) {
        return harbors.computeIfAbsent(port, p -> new HarborServer(p, bind, maxBody));
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
            throw new IllegalArgumentException("port " + port + " already has an RTMP server bound to " + s.bind());
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

    /** Adds a telnet server (it listens once the station starts); throws when its port has one already. */
    public synchronized void addTelnet(TelnetServer telnet) {
        for (TelnetServer t : telnets) {
            if (t.port() == telnet.port() && telnet.port() != 0) {
                throw new IllegalArgumentException("port " + telnet.port() + " already has a telnet server");
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
        for (HarborServer h : harbors.values()) h.abortLoad();
        rtmps.keySet().removeIf(port -> !rtmps.get(port).isListening()); // declared by the failed script only
        rtmpDeclared.clear();
        rtmpDeclared.addAll(rtmps.keySet());
        telnets.clear();
        telnets.addAll(previousTelnets);
        previousTelnets.clear();
    }

    /** Makes the loaded script's declarations the served ones; returns the mounts kept from before. */
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

    /** Binds every port not bound yet; throws naming the port when one cannot be bound. */
    public synchronized void start(int eventLoops) {
        this.eventLoops = eventLoops;
        commit();
        if (harbors.isEmpty() && telnets.isEmpty() && rtmps.isEmpty()) return;
        if (runtime == null) runtime = NetRuntime.start(eventLoops);
        for (HarborServer h : harbors.values()) {
            if (!h.isListening()) listen(h.port(), bind, () -> h.listen(runtime.vertx()));
        }
        for (RtmpServer r : rtmps.values()) {
            if (!r.isListening()) listen(r.port(), r.bind(), () -> r.listen(runtime.vertx()));
        }
        for (TelnetServer t : previousTelnets) closeQuietly(t::close);
        previousTelnets.clear();
        for (TelnetServer t : telnets) listen(t.port(), t.bind(), () -> t.listen(runtime.vertx()));
    }

    private void listen(int port, String address, Supplier<Future<?>> listen) {
        try {
            listen.get().await();
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot listen on port " + port + " (" + address + "): " + e.getMessage(), e);
        }
    }

    /** The station's Vert.x, started on first use (an output that only connects out needs no port). */
    public synchronized Vertx vertx() {
        if (runtime == null) runtime = NetRuntime.start(eventLoops);
        return runtime.vertx();
    }

    @Override
    public synchronized void close() {
        if (runtime == null) return;
        for (HarborServer h : harbors.values()) closeQuietly(h::close);
        for (RtmpServer r : rtmps.values()) closeQuietly(r::close);
        for (TelnetServer t : telnets) closeQuietly(t::close);
        runtime.close();
        runtime = null;
    }

    private static void closeQuietly(Supplier<Future<Void>> close) {
        try {
            close.get().await();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
