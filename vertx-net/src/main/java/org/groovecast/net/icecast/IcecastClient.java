package org.groovecast.net.icecast;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.internal.PlatformDependent;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.net.NetSocketInternal;
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
import org.groovecast.net.Reconnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source connection to an Icecast server, kept up by a virtual thread in direct style:
 * connect, send the source request, wait for the go-ahead, stream, and when the connection fails
 * or the server restarts, wait (backoff, or what the script's {@code onError} says) and do it
 * again. The clock hands chunks over through a bounded queue drained on the connection's event
 * loop; while disconnected they are dropped, so the clock and other outputs never wait.
 */
public final class IcecastClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IcecastClient.class);
    private static final int QUEUE = 64;

    private final IcecastTarget target;
    private final Reconnection reconnection;
    private final Queue<ByteBuf> queue = PlatformDependent.newFixedMpscQueue(QUEUE);
    private final AtomicInteger scheduled = new AtomicInteger();
    private volatile ChannelHandlerContext live;
    private volatile String title;
    private volatile boolean closed;
    private Vertx vertx;
    private Thread thread;
    private HttpClient http;
    private NetSocket socket;

    /** @param onError seconds to wait before reconnecting after an error, or null for a backoff of 1 s doubling to 30 s */
    public IcecastClient(IcecastTarget target, ToDoubleFunction<Throwable> onError) {
        this.target = target;
        this.reconnection = new Reconnection("output.icecast " + target, onError);
    }

    public IcecastTarget target() {
        return target;
    }

    /** Replaces the reconnection policy: a reloaded script brings its own {@code onError}. */
    public void onErrorFrom(IcecastClient other) {
        reconnection.policyFrom(other.reconnection);
    }

    /** Starts connecting in the background. */
    public void start(Vertx vertx) {
        this.vertx = vertx;
        this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(5000));
        thread = Thread.ofVirtual().name("output.icecast " + target).start(this::run);
    }

    public boolean isConnected() {
        return live != null;
    }

    /** A chunk of the stream, from the clock; takes ownership. Dropped while disconnected or when the socket is behind. */
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
                ctx.write(c, ctx.voidPromise());
            }
        }
        if (ctx != null) ctx.flush();
    }

    /** Sets the title shown by the server, now if connected and again after each reconnection. */
    public void metadata(String song) {
        title = song;
        if (live != null) Thread.startVirtualThread(this::sendMetadata);
    }

    private void run() {
        NetClient client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(5000).setTcpNoDelay(true));
        while (!closed) {
            Throwable failure;
            try {
                NetSocket s = client.connect(target.port(), target.host()).await();
                socket = s;
                Promise<Void> ended = Promise.promise();
                s.closeHandler(v -> ended.tryComplete());
                handshake(s);
                NetSocketInternal si = (NetSocketInternal) s;
                live = si.channelHandlerContext();
                log.info("output.icecast: streaming to {}", target);
                reconnection.connected();
                if (title != null) sendMetadata();
                ended.future().await();
                failure = new IllegalStateException("the server closed the connection");
            } catch (Throwable e) {
                failure = e;
            }
            live = null;
            socket = null;
            if (closed || !reconnection.waitAfter(failure)) break;
        }
        client.close();
    }

    /** Sends the source request and waits for 100 Continue or 200 OK. */
    private void handshake(NetSocket s) throws Exception {
        StringBuilder req = new StringBuilder("PUT ").append(target.mount()).append(" HTTP/1.1\r\n");
        for (Map.Entry<String, String> h : target.headers().entrySet()) {
            req.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        req.append("\r\n");
        Promise<String> head = Promise.promise();
        Buffer acc = Buffer.buffer();
        s.handler(b -> {
            if (head.future().isComplete()) return; // Icecast says nothing more while we stream
            acc.appendBuffer(b);
            String text = acc.toString(StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end >= 0) head.tryComplete(text.substring(0, end));
        });
        s.write(Buffer.buffer(req.toString().getBytes(StandardCharsets.ISO_8859_1)));
        String answer = head.future().timeout(10, TimeUnit.SECONDS).await();
        String status = answer.lines().findFirst().orElse("");
        String[] parts = status.split(" ", 3);
        int code = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        if (code == 100 || code == 200) return;
        s.close();
        throw new IllegalStateException(switch (code) {
            case 401 -> "the server refused the source password (401)";
            case 403 -> "the server refused the mount (403): " + status + " (in use, or too many sources)";
            default -> "the server answered " + status;
        });
    }

    /** Icecast's metadata update: GET /admin/metadata with the source credentials. */
    private void sendMetadata() {
        String song = title;
        if (song == null) return;
        String uri = "/admin/metadata?mode=updinfo&mount=" + URLEncoder.encode(target.mount(), StandardCharsets.UTF_8)
                + "&song=" + URLEncoder.encode(song, StandardCharsets.UTF_8);
        try {
            int code = http.request(new RequestOptions().setMethod(HttpMethod.GET).setHost(target.host())
                            .setPort(target.port()).setURI(uri).putHeader("Authorization", target.authorization()))
                    .compose(r -> r.send().compose(resp -> resp.body().map(b -> resp.statusCode())))
                    .await();
            if (code != 200) log.warn("output.icecast {}: metadata update answered {}", target, code);
        } catch (Exception e) {
            log.warn("output.icecast {}: metadata update failed: {}", target, e.getMessage());
        }
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
