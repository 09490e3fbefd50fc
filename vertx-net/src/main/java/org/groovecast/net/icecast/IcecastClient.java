package org.groovecast.net.icecast;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.internal.PlatformDependent;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;
import org.groovecast.net.output.Reconnection;
import org.groovecast.net.runtime.VertxInternals;
import org.groovecast.net.tls.TlsFailure;
import org.groovecast.net.tls.TlsOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source connection to an Icecast server, kept up by a virtual thread in direct style: connect,
 * send the source request, wait for the go-ahead, stream, and when the connection fails or the
 * server restarts, wait (backoff, or what the script's {@code onError} says) and do it again. The
 * clock hands chunks over through a bounded queue drained on the connection's event loop; while
 * disconnected they are dropped, so the clock and other outputs never wait.
 */
public final class IcecastClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IcecastClient.class);
    private static final int QUEUE = 64;

    /**
     * A fixed kernel send buffer rather than one autotuned to megabytes, so that a server that
     * stops reading shows within seconds: 64 KiB (the kernel doubles it) is 8 s of 128 kbit/s
     * audio, a tenth of a second of a 5 Mbit/s stream, still enough for a server a few tens of
     * milliseconds away.
     */
    private static final int SEND_BUFFER = 64 * 1024;

    private final IcecastTarget target;

    /** TLS to the server, or null for plain TCP. */
    private final TlsOptions tls;

    private final Reconnection reconnection;
    private final long timeoutNanos;
    private final Queue<ByteBuf> queue = PlatformDependent.newFixedMpscQueue(QUEUE);
    private final AtomicInteger scheduled = new AtomicInteger();
    private volatile ChannelHandlerContext live;

    /** Source connections made so far: a stream that must begin anew at each (Ogg) watches it. */
    private volatile long connections;

    private volatile String title;

    /**
     * {@code ice-audio-info} and {@code ice-bitrate}, known once the output knows its format; sent
     * with each source request.
     */
    private volatile Map<String, String> audioHeaders = Map.of();

    private volatile boolean closed;
    private Vertx vertx;
    private Thread thread;
    private HttpClient http;
    private NetSocket socket;
    // Write progress, on the connection's event loop: bytes handed to the socket, and when the
    // kernel last took some.
    private long queuedBytes;
    private long acceptedBytes;
    private long progressAt;
    private volatile boolean stalled;

    /**
     * The Shoutcast v1 variant of the protocol ({@code output.shoutcast}), or null for Icecast's
     * PUT.
     */
    private final ShoutcastProtocol shoutcast;

    private final String kind;

    /**
     * Where it streams, as the logs say it: {@code icecast://host:8000/radio}, {@code
     * shoutcast://host:8000}, {@code icecast+tls://} over TLS.
     */
    private final String where;

    private final String name;
    private volatile int bitrate;

    /**
     * @param onError seconds to wait before reconnecting after an error, or null for a backoff of 1
     *     s doubling to 30 s
     * @param timeoutSeconds how long the server may take to answer, or stop reading what is sent,
     *     before the connection counts as lost
     */
    /**
     * @param tls TLS to the server (its source connection and metadata updates), or null for plain
     *     TCP
     * @param shoutcast the Shoutcast v1 (ICY) source protocol instead of Icecast's, or null
     */
    public IcecastClient(
            IcecastTarget target,
            TlsOptions tls,
            ToDoubleFunction<Throwable> onError,
            double timeoutSeconds,
            ShoutcastProtocol shoutcast) {
        this.shoutcast = shoutcast;
        this.kind = shoutcast == null ? "output.icecast" : "output.shoutcast";
        this.target = target;
        this.tls = tls;
        String plain =
                shoutcast == null
                        ? target.toString()
                        : "shoutcast://" + target.host() + ":" + target.port();
        this.where =
                tls == null ? plain : plain.replaceFirst("^(icecast|shoutcast)://", "$1+tls://");
        this.name = kind + " " + where;
        this.reconnection = new Reconnection(name, onError);
        this.timeoutNanos = (long) (timeoutSeconds * 1e9);
    }

    public IcecastTarget target() {
        return target;
    }

    /** The target as logs and reloads name it ({@code icecast+tls://} over TLS). */
    public String where() {
        return where;
    }

    /**
     * Whether {@code other} would connect the same way: the same target and stream headers, the
     * same TLS settings and, for Shoutcast, the same source port. A reload keeps the connection
     * only then (a verification turned on must not stay off on the kept connection).
     */
    public boolean sameConnection(IcecastClient other) {
        return target.equals(other.target)
                && java.util.Objects.equals(tls, other.tls)
                && java.util.Objects.equals(shoutcast, other.shoutcast);
    }

    /**
     * How it connects besides {@link #where()}, for the reload's log: TLS checks, Shoutcast's
     * source port.
     */
    public String settings() {
        String s = tls == null ? "" : ", " + tls;
        return shoutcast == null ? s : s + ", source port " + shoutcast.sourcePort();
    }

    /** Replaces the reconnection policy: a reloaded script brings its own {@code onError}. */
    public void onErrorFrom(IcecastClient other) {
        reconnection.policyFrom(other.reconnection);
    }

    /** Starts connecting in the background. */
    public void start(Vertx vertx) {
        this.vertx = vertx;
        int ms = (int) Math.min(Integer.MAX_VALUE, timeoutNanos / 1_000_000);
        HttpClientOptions options = new HttpClientOptions().setConnectTimeout(Math.min(5000, ms));
        this.http = vertx.createHttpClient(tls == null ? options : tls.apply(options));
        thread = Thread.ofVirtual().name(name).start(this::run);
    }

    /** How many times the source connection came up; it changes with each (re)connection. */
    public long connections() {
        return connections;
    }

    public boolean isConnected() {
        return live != null;
    }

    /**
     * A chunk of the stream, from the clock; takes ownership. Dropped while disconnected or when
     * the socket is behind.
     */
    public void send(ByteBuf chunk) {
        ChannelHandlerContext ctx = live;
        if (ctx == null || !queue.offer(chunk)) {
            chunk.release();
            return;
        }
        if (scheduled.compareAndSet(0, 1)) ctx.executor().execute(this::drain);
    }

    private void drain() {
        scheduled.set(0);
        ChannelHandlerContext ctx = live;
        ByteBuf c;
        while ((c = queue.poll()) != null) {
            if (ctx == null || !ctx.channel().isWritable()) {
                c.release(); // the server is not keeping up: drop rather than queue without end
            } else {
                queuedBytes += c.readableBytes();
                ctx.write(c, ctx.voidPromise());
            }
        }
        if (ctx != null) {
            ctx.flush();
            checkProgress(ctx);
        }
    }

    /**
     * A server that accepts the connection but stops reading (stopped, hung) never closes it: once
     * the kernel has taken nothing of what waits for {@code timeout}, the connection is dropped and
     * made again, the stall logged once by the reconnection.
     */
    private void checkProgress(ChannelHandlerContext ctx) {
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        if (out == null) return;
        long pending = out.totalPendingWriteBytes();
        long accepted = queuedBytes - pending;
        long now = System.nanoTime();
        if (pending == 0 || accepted != acceptedBytes) {
            acceptedBytes = accepted;
            progressAt = now;
        } else if (now - progressAt >= timeoutNanos && !stalled) {
            stalled = true;
            ctx.close();
        }
    }

    /** Sets the title shown by the server, now if connected and again after each reconnection. */
    public void metadata(String song) {
        title = song;
        if (live != null) Thread.startVirtualThread(this::sendMetadata);
    }

    private void run() {
        NetClientOptions options =
                new NetClientOptions()
                        .setConnectTimeout(5000)
                        .setTcpNoDelay(true)
                        .setSendBufferSize(SEND_BUFFER);
        NetClient client = vertx.createNetClient(tls == null ? options : tls.apply(options));
        while (!closed) {
            Throwable failure;
            try {
                NetSocket s =
                        client.connect(
                                        shoutcast != null ? shoutcast.sourcePort() : target.port(),
                                        target.host())
                                .await();
                socket = s;
                Promise<Void> ended = Promise.promise();
                s.closeHandler(v -> ended.tryComplete());
                // Writes pending when a stalled connection is dropped fail: that is the stall,
                // logged once already.
                s.exceptionHandler(e -> log.debug("output.icecast {}: {}", target, e.toString()));
                if (shoutcast != null)
                    shoutcast.handshake(
                            s, ended.future(), target, bitrate, timeoutNanos, seconds());
                else handshake(s);
                ChannelHandlerContext ctx = VertxInternals.context(s);
                ctx.executor()
                        .execute(
                                () -> {
                                    queuedBytes = 0;
                                    acceptedBytes = 0;
                                    progressAt = System.nanoTime();
                                });
                stalled = false;
                live = ctx;
                connections++;
                log.info("{}: streaming to {}", kind, where);
                reconnection.connected();
                if (title != null) sendMetadata();
                ended.future().await();
                failure =
                        new IllegalStateException(
                                stalled
                                        ? "the server stopped reading the stream (nothing sent for "
                                                + seconds()
                                                + " s)"
                                        : "the server closed the connection");
            } catch (Throwable e) {
                failure = tls == null ? e : TlsFailure.explain(e);
            }
            live = null;
            socket = null;
            if (closed || !reconnection.waitAfter(failure)) break;
        }
        client.close();
    }

    /**
     * The stream's format for the server's status page and directories, as libshout 2.4 sends it
     * (ezstream, ices): {@code ice-audio-info: bitrate=128;samplerate=44100;channels=2}.
     *
     * @param bitrate nominal kbit/s, 0 when unknown
     */
    public void audioInfo(int sampleRate, int channels, int bitrate) {
        String info =
                (bitrate > 0 ? "bitrate=" + bitrate + ";" : "")
                        + "samplerate="
                        + sampleRate
                        + ";channels="
                        + channels;
        audioHeaders = Map.of("ice-audio-info", info);
        this.bitrate = bitrate;
    }

    /** Sends the source request and waits for 100 Continue or 200 OK. */
    private void handshake(NetSocket s) throws Exception {
        StringBuilder req =
                new StringBuilder("PUT ").append(target.mount()).append(" HTTP/1.1\r\n");
        for (Map.Entry<String, String> h : target.headers().entrySet()) {
            req.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        for (Map.Entry<String, String> h : audioHeaders.entrySet()) {
            req.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        req.append("\r\n");
        Promise<String> head = Promise.promise();
        Buffer acc = Buffer.buffer();
        s.handler(
                b -> {
                    if (head.future().isComplete())
                        return; // Icecast says nothing more while we stream
                    acc.appendBuffer(b);
                    String text = acc.toString(StandardCharsets.ISO_8859_1);
                    int end = text.indexOf("\r\n\r\n");
                    if (end >= 0) head.tryComplete(text.substring(0, end));
                });
        s.write(Buffer.buffer(req.toString().getBytes(StandardCharsets.ISO_8859_1)));
        String answer;
        try {
            answer = head.future().timeout(timeoutNanos, TimeUnit.NANOSECONDS).await();
        } catch (Exception e) { // Vert.x's timeout is a checked TimeoutException, thrown as is
            s.close();
            throw new IllegalStateException(
                    "the server did not answer the source request within " + seconds() + " s");
        }
        String status = answer.lines().findFirst().orElse("");
        String[] parts = status.split(" ", 3);
        int code = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        if (code == 100 || code == 200) return;
        s.close();
        throw new IllegalStateException(
                switch (code) {
                    case 401 -> "the server refused the source password (401)";
                    case 403 ->
                            "the server refused the mount (403): "
                                    + status
                                    + " (in use, or too many sources)";
                    default -> "the server answered " + status;
                });
    }

    /** Icecast's metadata update: GET /admin/metadata with the source credentials. */
    private void sendMetadata() {
        String song = title;
        if (song == null) return;
        String uri =
                shoutcast != null
                        ? shoutcast.metadataUri(target, song)
                        : "/admin/metadata?mode=updinfo&mount="
                                + URLEncoder.encode(target.mount(), StandardCharsets.UTF_8)
                                + "&song="
                                + URLEncoder.encode(song, StandardCharsets.UTF_8);
        try {
            RequestOptions request =
                    new RequestOptions()
                            .setMethod(HttpMethod.GET)
                            .setHost(target.host())
                            .setPort(target.port())
                            .setURI(uri)
                            .setIdleTimeout(timeoutNanos / 1_000_000);
            // Shoutcast's admin.cgi takes the password in the query, and wants a Mozilla-compatible
            // agent.
            if (shoutcast == null) request.putHeader("Authorization", target.authorization());
            else request.putHeader("User-Agent", ShoutcastProtocol.USER_AGENT);
            int code =
                    http.request(request)
                            .compose(
                                    r ->
                                            r.send()
                                                    .compose(
                                                            resp ->
                                                                    resp.body()
                                                                            .map(
                                                                                    b ->
                                                                                            resp
                                                                                                    .statusCode())))
                            .await();
            if (code != 200) log.warn("{}: metadata update answered {}", name, code);
        } catch (Exception e) {
            log.warn("{}: metadata update failed: {}", name, e.getMessage());
        }
    }

    private String seconds() {
        double s = timeoutNanos / 1e9;
        return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
    }

    @Override
    public void close() {
        closed = true;
        NetSocket s = socket;
        if (s != null) s.close();
        Reconnection.stop(thread);
        ByteBuf c;
        while ((c = queue.poll()) != null) c.release();
        if (http != null) http.close();
    }
}
