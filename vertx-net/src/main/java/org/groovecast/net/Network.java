package org.groovecast.net;

import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.groovecast.api.LiveDecoder;
import org.groovecast.net.harbor.HarborServer;

/**
 * A station's sockets: the harbor servers its script declared, one per port, started with the
 * station on a Vert.x of its own (native epoll) and closed with it. A station with no socket
 * starts no Vert.x at all.
 */
public final class Network implements AutoCloseable {
    private final String bind;
    private final int maxBody;
    private final LiveDecoder decoder;
    private final Map<Integer, HarborServer> harbors = new TreeMap<>();
    private NetRuntime runtime;
    private int eventLoops = 1;

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

    LiveDecoder decoder() {
        return decoder;
    }

    public synchronized List<HarborServer> harbors() {
        return List.copyOf(harbors.values());
    }

    /** Binds every port; throws naming the port when one cannot be bound. */
    public synchronized void start(int eventLoops) {
        this.eventLoops = eventLoops;
        if (harbors.isEmpty()) return;
        runtime = NetRuntime.start(eventLoops);
        for (HarborServer h : harbors.values()) {
            try {
                h.listen(runtime.vertx()).await();
            } catch (Exception e) {
                close();
                throw new IllegalStateException("cannot listen on port " + h.port() + " (" + bind + "): "
                        + e.getMessage(), e);
            }
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
        for (HarborServer h : harbors.values()) {
            try {
                h.close().await();
            } catch (Exception e) {
                // closing anyway
            }
        }
        runtime.close();
        runtime = null;
    }
}
