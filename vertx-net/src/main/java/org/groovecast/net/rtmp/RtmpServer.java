package org.groovecast.net.rtmp;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.groovecast.net.listening.ListeningServer;
import org.groovecast.net.runtime.ServerChannels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code rtmp.server(port:, bind:)}: publishers (OBS, ffmpeg) and players on one port, streams by
 * {@code app/key}. Netty's server channel on Vert.x's event loops (native epoll), one {@link
 * RtmpConnection} per connection handling everything it receives inline on its loop. Kept across
 * reloads with the network, so publishers and players stay connected; a reloaded script brings its
 * own auth hooks.
 */
public final class RtmpServer implements ListeningServer {
    private static final Logger log = LoggerFactory.getLogger(RtmpServer.class);

    /** {@code { app, key, params -> bool }}: whether a publisher or player may use a stream. */
    @FunctionalInterface
    public interface Check {
        boolean allow(String app, String key, Map<String, String> params);
    }

    /**
     * Limits a connection lives under; see the script function's documentation.
     *
     * @param maxPending bytes one connection's incomplete messages may hold together
     * @param maxPendingTotal bytes the incomplete messages of all the server's connections may hold
     * @param idleTimeoutMillis how long a connection may neither publish nor play, or publish
     *     nothing
     * @param chunkSize the chunk size this server sends in (Set Chunk Size): a larger one costs
     *     fewer headers and writes per message; 60000 is SRS's default, nginx-rtmp's 4096
     * @param playWaitTimeoutMillis how long a player may wait for its key's publisher (0: for
     *     ever); each waiting player holds a socket and a queue, and a stranger may name any key
     * @param maxWaitingPlayers how many players may wait for a publisher at once, counted over the
     *     server
     */
    public record Limits(
            int maxMessage,
            int maxChunkStreamId,
            long handshakeTimeoutMillis,
            long slowTimeoutMillis,
            int queueMessages,
            int highWaterBytes,
            long maxPending,
            long maxPendingTotal,
            long idleTimeoutMillis,
            int chunkSize,
            long playWaitTimeoutMillis,
            int maxWaitingPlayers) {
        public static final int DEFAULT_CHUNK_SIZE = 60_000;
        public static final Limits DEFAULT =
                new Limits(
                        8 << 20,
                        1024,
                        10_000,
                        10_000,
                        4096,
                        8 << 20,
                        16 << 20,
                        256 << 20,
                        30_000,
                        DEFAULT_CHUNK_SIZE,
                        30_000,
                        256);
    }

    private final int port;
    private final String bind;
    private volatile Limits limits = Limits.DEFAULT;
    private volatile Check onPublish;
    private volatile Check onPlay;
    // What the script being loaded declares; in force from commit(), so a failed reload changes
    // nothing.
    private Limits nextLimits = Limits.DEFAULT;

    private Check nextPublish;
    private Check nextPlay;

    /**
     * What the incomplete messages of all connections hold, against {@link
     * Limits#maxPendingTotal()}.
     */
    private final AssemblyBudget pending = new AssemblyBudget(Limits.DEFAULT.maxPendingTotal());

    private final Map<String, RtmpStream> streams = new ConcurrentHashMap<>();

    /** The open connections; a closed one leaves by itself. */
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

    /** Serve every connection on one event loop ({@link #oneLoop}); read when the port binds. */
    private volatile boolean oneLoop = true;

    private final Map<String, List<RtmpSubscriber>> watchers =
            new java.util.HashMap<>(); // guarded by this
    private Channel server;

    /** Players waiting for a key nobody publishes, against {@link Limits#maxWaitingPlayers()}. */
    private final java.util.concurrent.atomic.AtomicInteger waiting =
            new java.util.concurrent.atomic.AtomicInteger();

    /**
     * Players refused since the cap was last reached; -1 while below it (an episode is logged
     * once).
     */
    private final java.util.concurrent.atomic.AtomicLong refusedWaiting =
            new java.util.concurrent.atomic.AtomicLong(-1);

    public RtmpServer(int port, String bind) {
        this.port = port;
        this.bind = bind;
    }

    public int port() {
        return port;
    }

    public String bind() {
        return bind;
    }

    /** The limits for the script being loaded. */
    public synchronized void limits(Limits l) {
        nextLimits = l;
    }

    Limits limits() {
        return limits;
    }

    /** Bytes the incomplete messages of all connections hold now. */
    public AssemblyBudget pending() {
        return pending;
    }

    /** {@code server.onPublish { app, key, params -> bool }}: who may publish (null: anyone). */
    public synchronized RtmpServer onPublish(Check check) {
        nextPublish = check;
        return this;
    }

    /** {@code server.onPlay { app, key, params -> bool }}: who may play (null: anyone). */
    public synchronized RtmpServer onPlay(Check check) {
        nextPlay = check;
        return this;
    }

    /**
     * A script is about to declare this server again: its hooks and limits start from the defaults.
     */
    @Override
    public synchronized void beginLoad() {
        nextLimits = Limits.DEFAULT;
        nextPublish = null;
        nextPlay = null;
    }

    /** The loaded script's hooks and limits take effect (new connections get the new limits). */
    public synchronized void commit() {
        limits = nextLimits;
        pending.limit(nextLimits.maxPendingTotal());
        onPublish = nextPublish;
        onPlay = nextPlay;
    }

    @Override
    public List<String> commitLoad() {
        commit();
        return isListening() ? List.of("rtmp :" + port) : List.of();
    }

    @Override
    public String protocol() {
        return "rtmp";
    }

    @Override
    public String bindAddress(String defaultBind) {
        return bind;
    }

    @Override
    public Future<?> listen(Vertx vertx, String defaultBind) {
        return listen(vertx);
    }

    boolean mayPublish(String app, String key, Map<String, String> params) {
        return allowed(onPublish, app, key, params, "onPublish");
    }

    boolean mayPlay(String app, String key, Map<String, String> params) {
        return allowed(onPlay, app, key, params, "onPlay");
    }

    private static boolean allowed(
            Check check, String app, String key, Map<String, String> params, String what) {
        if (check == null) return true;
        try {
            return check.allow(app, key, params);
        } catch (RuntimeException e) {
            log.warn("rtmp: {} for {}/{} failed ({}); refusing", what, app, key, e.toString());
            return false;
        }
    }

    /**
     * The stream {@code path} for a new publisher on {@code loop}, or null when someone publishes
     * there already. Claims and watches take one lock, so an input watching a path is subscribed to
     * each of its streams exactly once.
     */
    synchronized RtmpStream claim(String path, EventExecutor loop) {
        RtmpStream s = new RtmpStream(path, loop);
        if (streams.putIfAbsent(path, s) != null) return null;
        List<RtmpSubscriber> w = watchers.get(path);
        if (w != null) for (RtmpSubscriber sub : w) s.subscribe(sub);
        return s;
    }

    /** The publisher left: the key is free again. */
    synchronized void release(String path, RtmpStream s) {
        streams.remove(path, s);
    }

    RtmpStream stream(String path) {
        return streams.get(path);
    }

    /** How many streams are being published now: one publisher each. */
    public int publishers() {
        return streams.size();
    }

    /**
     * Tells {@code players} of every stream published now ({@code app/key}) and how many
     * connections play it; for metrics, from any thread (a subscription made a moment ago may not
     * count yet).
     */
    public void forEachStream(java.util.function.ObjIntConsumer<String> players) {
        for (RtmpStream s : streams.values()) players.accept(s.name, s.players());
    }

    @Override
    public void readings(Readings readings) {
        readings.reading(
                "publishers",
                "streams being published to the RTMP server (one publisher each)",
                publishers());
        forEachStream(
                (stream, n) ->
                        readings.reading(
                                "players",
                                "connections playing a stream published to the RTMP server (a"
                                        + " script's input.rtmp not counted)",
                                n,
                                "stream",
                                stream));
    }

    /**
     * Per port, each published stream and its players; unless {@code detailed}, a stream's key is
     * hidden (its app shows), since a key is what lets one publish.
     */
    @Override
    public Map<String, Object> status(boolean detailed) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("port", isListening() ? actualPort() : port);
        java.util.SortedMap<String, Integer> players = new java.util.TreeMap<>();
        forEachStream(players::put);
        List<Object> streams = new java.util.ArrayList<>();
        for (Map.Entry<String, Integer> e : players.entrySet()) {
            String path = detailed ? e.getKey() : masked(e.getKey(), streams.size() + 1);
            streams.add(Map.of("path", path, "players", e.getValue()));
        }
        m.put("streams", streams);
        return m;
    }

    /**
     * {@code live/… #2}: the app, not the key; numbered, since two keys of one app must stay two
     * streams.
     */
    private static String masked(String path, int n) {
        int slash = path.indexOf('/');
        return (slash < 0 ? "" : path.substring(0, slash + 1)) + "… #" + n;
    }

    /** Whether {@code app/key} is being published now. */
    public boolean isPublished(String path) {
        return streams.containsKey(path);
    }

    /**
     * Feeds {@code subscriber} every time {@code path} is published, now if it is, until {@link
     * #unwatch}: a script's {@code input.rtmp}, and a playing connection, which waits for the key's
     * next publisher when there is none; returns whether it is published now.
     */
    public synchronized boolean watch(String path, RtmpSubscriber subscriber) {
        watchers.computeIfAbsent(path, p -> new java.util.ArrayList<>()).add(subscriber);
        RtmpStream s = streams.get(path);
        if (s != null) s.subscribe(subscriber);
        return s != null;
    }

    public synchronized void unwatch(String path, RtmpSubscriber subscriber) {
        List<RtmpSubscriber> w = watchers.get(path);
        if (w != null && w.remove(subscriber) && w.isEmpty())
            watchers.remove(path); // players name any key they like
        RtmpStream s = streams.get(path);
        if (s != null) s.unsubscribe(subscriber);
    }

    /**
     * A player starts waiting for a publisher (its connection's loop): false, counting nothing,
     * when {@code maxWaitingPlayers} wait already, unless {@code admitted} (a player whose
     * publisher left is counted, not dropped).
     */
    boolean startWaiting(String peer, String path, boolean admitted) {
        int max = limits.maxWaitingPlayers();
        while (true) {
            int n = waiting.get();
            if (n >= max && !admitted) {
                if (refusedWaiting.compareAndSet(-1, 1)) {
                    log.warn(
                            "rtmp: {} players wait for keys nobody publishes (maxWaitingPlayers); refusing more, "
                                    + "first {} for {}",
                            n,
                            peer,
                            path);
                } else {
                    refusedWaiting.incrementAndGet();
                }
                return false;
            }
            if (waiting.compareAndSet(n, n + 1)) return true;
        }
    }

    /** A player counted by {@link #startWaiting} no longer waits. */
    void stopWaiting() {
        if (waiting.decrementAndGet() < limits.maxWaitingPlayers()) {
            long refused = refusedWaiting.getAndSet(-1);
            if (refused > 0)
                log.info(
                        "rtmp: fewer players wait than maxWaitingPlayers again; {} were refused",
                        refused);
        }
    }

    /** Players waiting now for a key nobody publishes. */
    public int waitingPlayers() {
        return waiting.get();
    }

    public boolean isListening() {
        return server != null;
    }

    /**
     * Whether all connections share one event loop (true, the default) or are spread over all of
     * them; read when the port starts listening. On one loop a publisher's messages reach its
     * players on the thread that read them, as in nginx-rtmp's one worker; spread, a player on
     * another loop is reached through that loop's task queue and a wake-up, per message burst
     * (bench/README, RTMP relay: 0.70x the CPU at 2 publishers x 2 players on one loop).
     */
    public void oneLoop(boolean one) {
        oneLoop = one;
    }

    /** Binds the port; fails when it is taken. */
    public Future<Void> listen(Vertx vertx) {
        int high = limits.highWaterBytes();
        // Past the high mark a player counts as slow: its non-key frames are dropped.
        return ServerChannels.bind(
                        vertx,
                        bind,
                        port,
                        oneLoop,
                        b ->
                                b.childOption(
                                                ChannelOption.WRITE_BUFFER_WATER_MARK,
                                                new WriteBufferWaterMark(high / 2, high))
                                        // Pooled buffers slice into recycled views: a chunk written
                                        // to a player allocates
                                        // nothing, where the adaptive allocator's slices are new
                                        // objects per chunk.
                                        .childOption(
                                                ChannelOption.ALLOCATOR,
                                                PooledByteBufAllocator.DEFAULT),
                        () -> new RtmpConnection(this))
                .map(
                        ch -> {
                            server = ch;
                            log.info("rtmp: listening on {}:{}", bind, actualPort());
                            return null;
                        });
    }

    /** The port actually bound (differs from {@link #port()} when that was 0). */
    public int actualPort() {
        return server == null ? port : ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** A connection accepted (its loop): {@link #close} closes it. */
    void connected(Channel ch) {
        connections.add(ch);
    }

    /** The event loop of each open connection. */
    List<EventLoop> connectionLoops() {
        return connections.stream().map(Channel::eventLoop).toList();
    }

    /**
     * Closes the open connections, then stops accepting. They are closed here, while the event
     * loops still run, so that each connection's handler releases what it holds (its buffers, a
     * published stream's cached headers and GOP): a connection still open when the loops shut down
     * is dropped without its channelInactive, and what it held with it.
     */
    public Future<Void> close() {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        connections.close().addListener(f -> closed.complete(null));
        return Future.fromCompletionStage(closed).compose(v -> ServerChannels.close(server));
    }
}
