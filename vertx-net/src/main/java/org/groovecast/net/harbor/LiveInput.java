package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.net.live.LiveDecoding;
import org.groovecast.net.live.LiveSource;
import org.groovecast.net.live.LivePipe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code input.harbor(mount, port:, user:, password:)}: a live DJ. An Icecast source client
 * ({@code SOURCE}, or {@code PUT} with {@code Expect: 100-continue}) connects to the harbor; its
 * bytes go through a {@link LivePipe} to a decoding thread of their own (the decoder blocks on the
 * network, in direct style) and the samples through a {@link PcmRing} to the clock. Available only
 * once {@code buffer} seconds are decoded and while the client streams, so it is fallible.
 */
public final class LiveInput extends LiveSource implements HarborIngest {
    private static final Logger log = LoggerFactory.getLogger(LiveInput.class);

    private final int port;
    private final String path;
    private final LiveDecoder decoder;
    private volatile BiPredicate<String, String> auth;
    private final double timeoutSeconds;
    private final AtomicReference<Client> client = new AtomicReference<>();
    private volatile Consumer<Map<String, String>> onConnect;
    private volatile Runnable onDisconnect;
    private AudioFormat format;

    /**
     * @param auth  user and password to accepted; usually a comparison with the configured ones
     */
    public LiveInput(int port, String path, LiveDecoder decoder, BiPredicate<String, String> auth,
                     double bufferSeconds, double maxSeconds, double timeoutSeconds) {
        super("input.harbor", bufferSeconds, maxSeconds);
        this.port = port;
        this.path = path;
        this.decoder = decoder;
        this.auth = auth;
        this.timeoutSeconds = timeoutSeconds;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String endpoint() {
        return ":" + port + path;
    }

    public void onConnect(Consumer<Map<String, String>> callback) {
        onConnect = callback;
    }

    public void onDisconnect(Runnable callback) {
        onDisconnect = callback;
    }

    /** Replaces the user and password check: {@code live.auth { user, password -> ... }}. */
    public void auth(BiPredicate<String, String> check) {
        auth = check;
    }

    /** Whether a source client is connected now. */
    @Override
    public boolean isConnected() {
        return client.get() != null;
    }

    /** Kicks the connected client, if any. */
    public void stop() {
        Client c = client.get();
        if (c != null) c.ctx.close();
    }

    @Override
    protected void onPrepare(StreamContext context) {
        super.onPrepare(context);
        format = context.format();
    }

    /** The station stopped and no reloaded one took the DJ over: let it go. */
    @Override
    protected void onShutdown() {
        stop();
    }

    /**
     * A reload: the connected DJ's stream now feeds this input, ring and all, so the DJ stays on
     * air without reconnecting. The decoding thread keeps running; it follows {@link Client#owner}.
     */
    @Override
    protected void adopt(Source previous) {
        LiveInput p = (LiveInput) previous;
        Client c = p.client.getAndSet(null);
        if (c == null) return;
        if (!p.format.equals(format) || !client.compareAndSet(null, c)) {
            // The station's sample format changed, or another DJ got in meanwhile: this one reconnects.
            log.info("input.harbor {}: reload cannot keep source client {}; disconnecting it", path, c.peer);
            c.ctx.close();
            return;
        }
        buffer = p.buffer;
        c.owner = this;
        log.info("input.harbor {}: source client {} kept across the reload", path, c.peer);
    }

    // ---------------------------------------------------------------- the harbor side

    @Override
    public boolean authorizes(String user, String password) {
        return auth.test(user, password);
    }

    /** The client's own silence timeout bounds the check too: a DJ's software waits that long at most anyway. */
    @Override
    public double authTimeout() {
        return timeoutSeconds;
    }

    @Override
    public Session connect(RequestHead head, ChannelHandlerContext ctx, String peer) {
        if (buffer == null) {
            refuse(ctx, 503, "the station is not running", Map.of());
            return null;
        }
        Client c = new Client(this, ctx, peer);
        if (!client.compareAndSet(null, c)) {
            log.warn("input.harbor {}: refused {}: a source client is already streaming there", path, peer);
            refuse(ctx, 403, "mount " + path + " in use: a source client is already streaming there", Map.of());
            return null;
        }
        String version = head.version();
        if ("100-continue".equalsIgnoreCase(head.header("expect"))) {
            ctx.writeAndFlush(Unpooled.copiedBuffer(version + " 100 Continue\r\n\r\n", StandardCharsets.ISO_8859_1),
                    ctx.voidPromise());
        } else {
            ctx.writeAndFlush(Unpooled.copiedBuffer(version + " 200 OK\r\n\r\n", StandardCharsets.ISO_8859_1),
                    ctx.voidPromise());
        }
        log.info("input.harbor {}: source client {} connected ({})", path, peer, head.header("content-type"));
        Consumer<Map<String, String>> cb = onConnect;
        if (cb != null) Thread.startVirtualThread(() -> cb.accept(head.headers()));
        c.start(head.header("content-type"));
        return c;
    }

    @Override
    public int adminMetadata(Map<String, String> params) {
        String song = params.get("song");
        if (!"updinfo".equals(params.get("mode")) || song == null) return 400;
        Map<String, String> m = new LinkedHashMap<>();
        int dash = song.indexOf(" - ");
        if (dash > 0) {
            m.put("artist", song.substring(0, dash));
            m.put("title", song.substring(dash + 3));
        } else {
            m.put("title", song);
        }
        m.put("song", song);
        insertMetadata(m);
        return 200;
    }

    private static void refuse(ChannelHandlerContext ctx, int status, String message, Map<String, String> headers) {
        ctx.writeAndFlush(Responses.text(ctx.alloc(), "HTTP/1.0", status, message, false, headers))
                .addListener(ChannelFutureListener.CLOSE);
    }

    /** The connected source client: its pipe and its decoding thread. */
    private static final class Client implements Session {
        final ChannelHandlerContext ctx;
        final String peer;
        final LivePipe pipe;
        /** The input this client feeds; a reload moves it to the new station's input. */
        volatile LiveInput owner;
        private Thread thread;
        /** Bytes of stream received so far (event loop writes, the decoding thread reads at the end). */
        private volatile long received;

        Client(LiveInput owner, ChannelHandlerContext ctx, String peer) {
            this.owner = owner;
            this.ctx = ctx;
            this.peer = peer;
            this.pipe = new LivePipe(256 * 1024, LivePipe.seconds(owner.timeoutSeconds),
                    () -> ctx.channel().config().setAutoRead(false), () -> ctx.channel().config().setAutoRead(true));
        }

        void start(String contentType) {
            // A platform thread: the decoder spends its time in native code, which would pin a virtual one.
            thread = Thread.ofPlatform().daemon().name("input.harbor " + owner.path).start(() -> decode(contentType));
        }

        @Override
        public void feed(ByteBuf data) {
            received += data.readableBytes();
            pipe.offer(data);
        }

        @Override
        public void disconnected() {
            pipe.finish();
        }

        private void decode(String contentType) {
            LiveInput first = owner;
            try {
                LiveDecoding.run(first.decoder, pipe, contentType, first.format, null, 1, () -> owner);
            } catch (IOException | RuntimeException e) {
                // A client that went silent makes the decoder fail on a stream cut short: the timeout is the news.
                if (received == 0 && !pipe.timedOut()) {
                    log.info("input.harbor {}: {} left before sending any audio", owner.path, peer);
                } else if (!pipe.timedOut()) {
                    log.warn("input.harbor {}: stream from {} cannot be decoded, disconnecting it: {}", owner.path, peer,
                            e.getMessage());
                }
            } finally {
                LiveInput in = owner;
                if (pipe.timedOut()) {
                    log.warn("input.harbor {}: {} sent nothing for {} s (timeout); disconnecting it", in.path, peer,
                            in.timeoutSeconds);
                }
                pipe.close();
                ctx.close();
                in.client.compareAndSet(this, null);
                log.info("input.harbor {}: source client {} disconnected", in.path, peer);
                Runnable d = in.onDisconnect;
                if (d != null) d.run();
            }
        }
    }
}
