package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;
import org.groovecast.net.output.Reconnection;
import org.groovecast.net.runtime.VertxInternals;
import org.groovecast.net.tls.TlsFailure;
import org.groovecast.net.tls.TlsOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection of an {@code output.rtmp} to an RTMP server, kept up by a virtual thread in direct
 * style: connect, handshake, {@code connect}/{@code createStream}/{@code publish}, then stream;
 * when the connection fails, wait (backoff, or what the script's {@code onError} says) and do it
 * again. The clock hands messages over through a bounded queue drained on the connection's event
 * loop; while disconnected they are dropped, and after a reconnection the server first gets the
 * metadata and sequence headers again and video resumes on a keyframe. A server that does not
 * answer within the timeout, or stops taking what is sent for as long (a {@link StallWatch}), costs
 * the connection: it is closed and made again.
 */
public final class RtmpPushClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RtmpPushClient.class);
    private static final int QUEUE = 1024;

    /**
     * The chunk size this client sends in, nginx-rtmp's: a 4 KiB audio or video frame in one chunk.
     */
    private static final int CHUNK_SIZE = 4096;

    private final String url;
    private final String host;
    private final int port;
    private final String app;
    private final String key;

    /** TLS for an {@code rtmps://} URL, else null. */
    private final TlsOptions tls;

    private final Reconnection reconnection;
    private final long timeoutMillis;
    // Drained on the event loop, emptied by close() from another thread: a queue safe for both.
    private final Queue<RtmpMessage> queue = new java.util.concurrent.ArrayBlockingQueue<>(QUEUE);

    /** A video message was dropped (queue full): the loop resumes video on a keyframe. */
    private volatile boolean lost;

    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Runnable drain = this::drain;
    private volatile ChannelHandlerContext live;
    private volatile boolean closed;
    // Event loop of the live connection only:
    private MessageWriter out;
    private int streamId;
    private boolean needKeyframe;
    private StallWatch watch;

    /** Kept for the next (re)connection; guarded by this. */
    private final StreamHeaders headers = new StreamHeaders();

    private Thread thread;
    private NetSocket socket;

    /**
     * @param url {@code rtmp://host[:port]/app/key}, or {@code rtmps://host[:port]/app/key} (port
     *     443 by default) over TLS
     * @param tls how an {@code rtmps://} URL checks the server's certificate; null for the JVM's
     *     trust store
     * @param timeoutMillis how long the server may take to answer, or to take what is written
     */
    public RtmpPushClient(
            String url, TlsOptions tls, ToDoubleFunction<Throwable> onError, long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException(
                    "timeout must be positive, got " + timeoutMillis + " ms");
        }
        URI u = URI.create(url);
        boolean secure = "rtmps".equalsIgnoreCase(u.getScheme());
        if (!(secure || "rtmp".equalsIgnoreCase(u.getScheme())) || u.getHost() == null) {
            throw new IllegalArgumentException("not an rtmp:// or rtmps:// URL: " + url);
        }
        this.tls = secure ? (tls != null ? tls : new TlsOptions(null, true)) : null;
        String path = u.getRawPath() == null ? "" : u.getRawPath().replaceFirst("^/", "");
        int slash = path.lastIndexOf('/');
        if (slash <= 0 || slash == path.length() - 1) {
            throw new IllegalArgumentException(
                    "an RTMP URL names an app and a key: rtmp://host/app/key, got " + url);
        }
        this.url = url;
        this.host = u.getHost();
        this.port = u.getPort() > 0 ? u.getPort() : secure ? 443 : 1935;
        this.app = path.substring(0, slash);
        this.key =
                path.substring(slash + 1) + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
        this.reconnection = new Reconnection("output.rtmp " + url, onError);
        this.timeoutMillis = timeoutMillis;
    }

    public String url() {
        return url;
    }

    public boolean isConnected() {
        return live != null;
    }

    /** Starts connecting in the background. */
    public void start(Vertx vertx) {
        thread = Thread.ofVirtual().name("output.rtmp " + url).start(() -> run(vertx));
    }

    /**
     * A tag of the stream, from the clock; takes ownership. Dropped while disconnected or when the
     * socket is behind.
     */
    public void send(RtmpMessage m) {
        if (m.type == RtmpMessage.DATA || m.sequenceHeader) {
            synchronized (this) {
                headers.keep(
                        m,
                        m.type
                                == RtmpMessage
                                        .DATA); // kept for the next (re)connection, sent now too
            }
        }
        ChannelHandlerContext ctx = live;
        if (ctx == null || !queue.offer(m)) {
            if (m.type == RtmpMessage.VIDEO) lost = true;
            m.payload.release();
            return;
        }
        if (scheduled.compareAndSet(false, true)) ctx.executor().execute(drain);
    }

    /** The kept headers, each retained for the caller. */
    private synchronized List<RtmpMessage> headers() {
        List<RtmpMessage> h = new java.util.ArrayList<>();
        headers.forEach(
                m -> {
                    m.payload.retain();
                    h.add(m);
                });
        return h;
    }

    private void drain() {
        scheduled.set(false);
        ChannelHandlerContext ctx = live;
        if (lost) {
            lost = false;
            needKeyframe = true;
        }
        RtmpMessage m;
        boolean wrote = false;
        while ((m = queue.poll()) != null) {
            try {
                if (ctx == null || !ctx.channel().isActive()) continue;
                if (m.type == RtmpMessage.VIDEO && !m.sequenceHeader) {
                    if (m.keyframe) needKeyframe = false;
                    if (needKeyframe || !ctx.channel().isWritable()) {
                        needKeyframe =
                                true; // behind: skip to the next keyframe rather than queue up
                        continue;
                    }
                } else if (m.type == RtmpMessage.AUDIO
                        && !m.sequenceHeader
                        && !ctx.channel().isWritable()) {
                    continue; // behind: audio is dropped too, never queued without bound
                }
                write(ctx, m);
                wrote = true;
            } finally {
                m.payload.release();
            }
        }
        if (wrote) ctx.flush();
    }

    private void write(ChannelHandlerContext ctx, RtmpMessage m) {
        if (m.type == RtmpMessage.DATA) {
            // A publisher sends its metadata through @setDataFrame; the server keeps it for
            // players.
            ByteBuf b = ctx.alloc().buffer(16 + m.payload.readableBytes());
            Amf0.write(b, "@setDataFrame");
            b.writeBytes(m.payload, m.payload.readerIndex(), m.payload.readableBytes());
            out.write(ChunkStreamId.DATA, MessageType.DATA_AMF0, streamId, m.timestamp, b);
            b.release();
        } else {
            out.write(
                    m.type == RtmpMessage.AUDIO ? ChunkStreamId.AUDIO : ChunkStreamId.VIDEO,
                    m.type,
                    streamId,
                    m.timestamp,
                    m.payload);
        }
        if (watch != null) {
            watch.wrote(m.payload.readableBytes());
        }
    }

    private void run(Vertx vertx) {
        NetClientOptions options =
                new NetClientOptions()
                        .setConnectTimeout((int) Math.min(timeoutMillis, Integer.MAX_VALUE))
                        .setTcpNoDelay(true);
        NetClient client = vertx.createNetClient(tls == null ? options : tls.apply(options));
        while (!closed) {
            Throwable failure;
            Session session = null;
            try {
                NetSocket s = client.connect(port, host).await();
                socket = s;
                session = new Session(s);
                session.establish();
                log.info("output.rtmp: publishing to {}", url);
                reconnection.connected();
                session.ended.future().await();
                String stall = session.stall;
                failure =
                        new IllegalStateException(
                                stall != null ? stall : "the server closed the connection");
            } catch (Throwable e) {
                failure = tls == null ? e : TlsFailure.explain(e);
            }
            live = null;
            NetSocket open = socket;
            socket = null;
            if (open != null) open.close(); // a refused publish leaves the connection up otherwise
            if (session != null) session.release();
            if (closed || !reconnection.waitAfter(failure)) break;
        }
        client.close();
    }

    /**
     * One connection: what the server sent, decoded on the event loop; the virtual thread waits on
     * its answers.
     */
    private final class Session implements ChunkDecoder.Sink {
        final NetSocket socket;
        final ChannelHandlerContext ctx;
        final ByteBuf received;
        final Promise<Void> ended = Promise.promise();
        final Map<Double, Promise<List<Object>>> answers =
                new java.util.concurrent.ConcurrentHashMap<>();
        volatile Promise<Map<?, ?>> status;
        Promise<Void> handshaken = Promise.promise();
        ChunkDecoder decoder;
        boolean released;
        final StallWatch stallWatch;

        /** Why this end closed the connection, if it did because the server stopped reading. */
        volatile String stall;

        Session(NetSocket s) {
            this.socket = s;
            this.ctx = VertxInternals.context(s);
            this.received = ctx.alloc().buffer(4096);
            this.stallWatch =
                    new StallWatch(
                            ctx,
                            timeoutMillis,
                            why -> {
                                stall = why;
                                socket.close();
                            });
            s.closeHandler(
                    v -> {
                        ended.tryComplete();
                        handshaken.tryFail("the server closed the connection");
                        answers.values()
                                .forEach(p -> p.tryFail("the server closed the connection"));
                        Promise<Map<?, ?>> st = status;
                        if (st != null) st.tryFail("the server closed the connection");
                    });
            s.handler(b -> receive(VertxInternals.byteBuf(b)));
        }

        private void receive(ByteBuf bytes) {
            if (released) return; // bytes after the session ended
            try {
                received.writeBytes(bytes);
                if (decoder == null) {
                    if (received.readableBytes() < 1 + 2 * Handshake.SIZE) return;
                    ByteBuf c2 = ctx.alloc().buffer(Handshake.SIZE);
                    Handshake.clientAck(received, c2);
                    ctx.writeAndFlush(c2);
                    decoder =
                            new ChunkDecoder(
                                    ctx.alloc(),
                                    ChunkDecoder.DEFAULT_MAX_MESSAGE,
                                    ChunkDecoder.DEFAULT_MAX_CHUNK_STREAM_ID);
                    handshaken.tryComplete();
                }
                decoder.decode(received, this);
                received.discardSomeReadBytes();
            } catch (RuntimeException e) {
                log.warn("output.rtmp {}: {}", url, e.getMessage());
                socket.close();
            }
        }

        @Override
        public void message(int csid, int type, int sid, long timestamp, ByteBuf payload) {
            try {
                if (type == MessageType.USER_CONTROL) {
                    out.answerPing(payload);
                } else if (type == MessageType.ACKNOWLEDGEMENT) {
                    stallWatch.acknowledged(); // of what the server read: it keeps reading
                } else if (type == MessageType.COMMAND_AMF0 || type == MessageType.COMMAND_AMF3) {
                    if (type == MessageType.COMMAND_AMF3)
                        payload.skipBytes(1); // AMF0 after the leading byte
                    List<Object> v = Amf0.readAll(payload);
                    if (v.isEmpty()) return;
                    Object name = v.get(0);
                    if ("_result".equals(name) || "_error".equals(name)) {
                        Promise<List<Object>> p =
                                answers.remove(
                                        v.size() > 1 && v.get(1) instanceof Double d ? d : -1.0);
                        if (p != null) p.tryComplete(v);
                    } else if ("onStatus".equals(name)
                            && v.size() > 3
                            && v.get(3) instanceof Map<?, ?> info) {
                        Promise<Map<?, ?>> st = status;
                        if (st != null) st.tryComplete(info);
                    }
                }
            } finally {
                payload.release();
            }
        }

        /**
         * Handshake and the publish dialogue; returns once the server said NetStream.Publish.Start.
         */
        void establish() {
            ctx.executor()
                    .execute(
                            () -> {
                                ByteBuf hello = ctx.alloc().buffer(1 + Handshake.SIZE);
                                Handshake.clientHello(hello);
                                ctx.writeAndFlush(hello);
                            });
            handshaken.future().timeout(timeoutMillis, TimeUnit.MILLISECONDS).await();
            onLoop(
                    () -> {
                        out = new MessageWriter(ctx);
                        out.setChunkSize(CHUNK_SIZE);
                        // Window Acknowledgement Size: the server's acknowledgements then tell that
                        // it reads
                        out.windowAcknowledgementSize(StallWatch.WINDOW);
                    });
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("app", app);
            info.put("type", "nonprivate");
            info.put("flashVer", "FMLE/3.0 (compatible; Groovecast)");
            info.put(
                    "tcUrl",
                    (tls == null ? "rtmp://" : "rtmps://") + host + ":" + port + "/" + app);
            expect(call(1, 0, "connect", info), "connect");
            call(2, 0, "releaseStream", null, key);
            call(3, 0, "FCPublish", null, key);
            List<Object> created =
                    expect(call(4, 0, "createStream", (Object) null), "createStream");
            if (!(created.size() > 3 && created.get(3) instanceof Double id)) {
                throw new IllegalStateException("createStream answered no stream id");
            }
            int sid = id.intValue();
            Promise<Map<?, ?>> st = Promise.promise();
            status = st;
            call(5, sid, "publish", null, key, "live");
            Map<?, ?> answer = st.future().timeout(timeoutMillis, TimeUnit.MILLISECONDS).await();
            if (!"NetStream.Publish.Start".equals(answer.get("code"))) {
                throw new IllegalStateException(
                        "the server refused to publish "
                                + app
                                + "/"
                                + key
                                + ": "
                                + answer.get("code")
                                + " "
                                + answer.get("description"));
            }
            List<RtmpMessage> headers = headers();
            onLoop(
                    () -> {
                        streamId = sid;
                        needKeyframe = true;
                        for (RtmpMessage h : headers) {
                            write(ctx, h);
                            h.payload.release();
                        }
                        ctx.flush();
                        live = ctx;
                        watch = stallWatch;
                        stallWatch.start();
                    });
        }

        private Promise<List<Object>> call(double txn, int sid, String name, Object... args) {
            Promise<List<Object>> p = Promise.promise();
            if (txn != 2 && txn != 3) answers.put(txn, p);
            onLoop(
                    () -> {
                        out.command(sid, name, txn, args);
                        ctx.flush();
                    });
            return p;
        }

        private List<Object> expect(Promise<List<Object>> p, String what) {
            List<Object> v = p.future().timeout(timeoutMillis, TimeUnit.MILLISECONDS).await();
            if ("_error".equals(v.get(0))) {
                Object info = v.size() > 3 ? v.get(3) : null;
                throw new IllegalStateException(
                        what
                                + " refused: "
                                + (info instanceof Map<?, ?> m
                                        ? m.get("code") + " " + m.get("description")
                                        : String.valueOf(info)));
            }
            return v;
        }

        private void onLoop(Runnable r) {
            Promise<Void> done = Promise.promise();
            ctx.executor()
                    .execute(
                            () -> {
                                try {
                                    r.run();
                                    done.complete();
                                } catch (RuntimeException e) {
                                    done.fail(e);
                                }
                            });
            done.future().await();
        }

        void release() {
            ctx.executor()
                    .execute(
                            () -> {
                                released = true;
                                stallWatch.stop();
                                if (watch == stallWatch) watch = null;
                                received.release();
                                if (decoder != null) decoder.release();
                            });
        }
    }

    @Override
    public void close() {
        closed = true;
        NetSocket s = socket;
        if (s != null) s.close();
        Reconnection.stop(thread);
        RtmpMessage m;
        while ((m = queue.poll()) != null) m.payload.release();
        synchronized (this) {
            headers.clear();
        }
    }
}
