package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.Responses;
import org.groovecast.net.live.LiveDecoding;
import org.groovecast.net.live.LivePipe;
import org.groovecast.net.live.LiveSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code input.harbor(mount, port:, user:, password:)}: a live DJ. An Icecast source client ({@code
 * SOURCE}, or {@code PUT} with {@code Expect: 100-continue}) connects to the harbor; its bytes go
 * through a {@link LivePipe} to a decoding thread of their own (the decoder blocks on the network,
 * in direct style) and the samples through a {@link org.groovecast.api.LiveBuffer} to the clock.
 * Available only once {@code buffer} seconds are decoded and while the client streams, so it is
 * fallible.
 *
 * <p>A DJ whose login check answered a name ({@link Login#named()}) is on air under it: the input's
 * metadata carries {@value #USERNAME} and {@value #DISPLAY_NAME} while the DJ streams, and the
 * first chunk the display name as its title.
 */
public final class LiveInput extends LiveSource implements HarborIngest {
    private static final Logger log = LoggerFactory.getLogger(LiveInput.class);

    /** The metadata key of the DJ's name, as the login check answered it. */
    public static final String USERNAME = "dj_username";

    /** The metadata key of the DJ's display name. */
    public static final String DISPLAY_NAME = "dj_display_name";

    private final int port;
    private final String path;
    private final LiveDecoder decoder;

    /**
     * The configured user and password, checked unless the script gave an {@link #auth} function.
     */
    private final BiPredicate<String, String> credentials;

    /** The script's login check, or null. */
    private volatile BiFunction<String, String, ?> auth;

    private final double timeoutSeconds;
    private volatile String icyUser = "source";
    private final AtomicReference<Client> client = new AtomicReference<>();
    private volatile Consumer<Map<String, Object>> onConnect;
    private volatile Runnable onDisconnect;
    private AudioFormat format;

    /**
     * @param credentials whether a user and password may stream: a comparison with the configured
     *     ones; a script's function set with {@link #auth} takes its place
     */
    public LiveInput(
            int port,
            String path,
            LiveDecoder decoder,
            BiPredicate<String, String> credentials,
            double bufferSeconds,
            double maxSeconds,
            double timeoutSeconds) {
        super("input.harbor", bufferSeconds, maxSeconds);
        this.port = port;
        this.path = path;
        this.decoder = decoder;
        this.credentials = credentials;
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

    /**
     * Called, on a virtual thread, with each admitted client: {@code user} (as it logged in),
     * {@code username} and {@code displayName} (as the login check named it, else the user), {@code
     * address} (the client's IP address) and {@code headers} (its request's, names lower-case).
     */
    public void onConnect(Consumer<Map<String, Object>> callback) {
        onConnect = callback;
    }

    public void onDisconnect(Runnable callback) {
        onDisconnect = callback;
    }

    /**
     * Replaces the user and password check: {@code live.auth { user, password -> ... }}, answering
     * true or false, or {@code [allow: true, username: 'dj1', displayName: 'DJ One']}. A client
     * that sends only a password (user {@code source} or none) with {@code dj1:pw} in it is asked
     * about as user {@code dj1}, password {@code pw} (see {@link Login.Sent}).
     */
    public void auth(BiFunction<String, String, ?> check) {
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

    /**
     * The connected client's address and port ({@code 192.0.2.7:51234}), or null when none streams.
     */
    public String connectedClient() {
        Client c = client.get();
        return c == null ? null : c.peer;
    }

    /**
     * Who streams to a live input: address:port, the DJ's name (or login user), since when (epoch
     * ms).
     */
    public record Connection(String client, String name, long since) {}

    /** The client streaming now, read at once (a status page must not mix two clients), or null. */
    public Connection connection() {
        Client c = client.get();
        return c == null ? null : new Connection(c.peer, c.name, c.since);
    }

    /**
     * As Liquidsoap's {@code status} says it: {@code source client connected from <address>}, or
     * that none is.
     */
    public String status() {
        String c = connectedClient();
        return c == null ? "no source client connected" : "source client connected from " + c;
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
            // The station's sample format changed, or another DJ got in meanwhile: this one
            // reconnects.
            log.info(
                    "input.harbor {}: reload cannot keep source client {}; disconnecting it",
                    path,
                    c.peer);
            c.ctx.close();
            return;
        }
        buffer = p.buffer;
        c.owner = this;
        log.info("input.harbor {}: source client {} kept across the reload", path, c.peer);
    }

    // ---------------------------------------------------------------- the harbor side

    @Override
    public Login login(String user, String password) {
        BiFunction<String, String, ?> check = auth;
        if (check == null)
            return credentials.test(user, password) ? Login.allowed(user) : Login.refused(user);
        Login.Sent sent = Login.Sent.of(user, password);
        return Login.of(check.apply(sent.user(), sent.password()), sent.user());
    }

    /**
     * A Shoutcast v1 client sends a password alone: it is checked as the configured user's (or
     * handed to the {@code auth} function with that user, which splits {@code dj1:pw} as for any
     * password-only client); a {@code user:password} line is also tried as that user and password.
     */
    @Override
    public Login icyLogin(String password) {
        Login whole = login(icyUser, password);
        if (whole.allowed() || auth != null) return whole;
        int colon = password.indexOf(':');
        return colon > 0
                ? login(password.substring(0, colon), password.substring(colon + 1))
                : whole;
    }

    /**
     * The user a Shoutcast v1 (ICY) client, which sends only a password, logs in as: {@code user:}.
     */
    public void icyUser(String user) {
        icyUser = user;
    }

    /**
     * The client's own silence timeout bounds the check too: a DJ's software waits that long at
     * most anyway.
     */
    @Override
    public double authTimeout() {
        return timeoutSeconds;
    }

    @Override
    public Session connect(RequestHead head, ChannelHandlerContext ctx, String peer, Login login) {
        return connect(
                head,
                head.header("content-type"),
                ctx,
                peer,
                login,
                new Answer() {
                    @Override
                    public void accept() {
                        String version = head.version();
                        // A Shoutcast v1 client: its OK2 went before its headers; the stream
                        // follows them.
                        if (version.equals(IcySourceConnection.VERSION)) return;
                        String line =
                                "100-continue".equalsIgnoreCase(head.header("expect"))
                                        ? " 100 Continue\r\n\r\n"
                                        : " 200 OK\r\n\r\n";
                        ctx.writeAndFlush(
                                Unpooled.copiedBuffer(version + line, StandardCharsets.ISO_8859_1),
                                ctx.voidPromise());
                    }

                    @Override
                    public void refuse(int status, String message) {
                        LiveInput.refuse(ctx, status, message, Map.of());
                    }
                });
    }

    @Override
    public Session connect(
            RequestHead head,
            String contentType,
            ChannelHandlerContext ctx,
            String peer,
            Login login,
            Answer answer) {
        if (buffer == null) {
            answer.refuse(503, "the station is not running");
            return null;
        }
        Client c = new Client(this, ctx, peer, login);
        if (!client.compareAndSet(null, c)) {
            log.warn(
                    "input.harbor {}: refused {}: a source client is already streaming there",
                    path,
                    peer);
            answer.refuse(
                    403, "mount " + path + " in use: a source client is already streaming there");
            return null;
        }
        answer.accept();
        if (login.named()) {
            log.info(
                    "input.harbor {}: source client {} connected as {} ({})",
                    path,
                    peer,
                    login.username(),
                    contentType);
            Map<String, String> first = new LinkedHashMap<>(c.identity);
            first.put("title", login.displayName());
            insertMetadata(first);
        } else {
            log.info("input.harbor {}: source client {} connected ({})", path, peer, contentType);
        }
        Consumer<Map<String, Object>> cb = onConnect;
        if (cb != null) {
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("user", login.user());
            info.put("username", login.username());
            info.put("displayName", login.displayName());
            info.put(
                    "address",
                    ctx.channel().remoteAddress() instanceof InetSocketAddress a
                            ? a.getAddress().getHostAddress()
                            : peer);
            info.put("headers", head.headers());
            Thread.startVirtualThread(() -> cb.accept(info));
        }
        c.start(contentType);
        return c;
    }

    /**
     * The stream's own tags (in-stream, or its software's title updates), with the name of the DJ
     * on air.
     */
    @Override
    public void tags(Map<String, String> tags) {
        Client c = client.get();
        if (c == null || c.identity.isEmpty()) {
            insertMetadata(tags);
            return;
        }
        Map<String, String> m = new LinkedHashMap<>(tags);
        m.putAll(c.identity);
        insertMetadata(m);
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
        tags(m);
        return 200;
    }

    private static void refuse(
            ChannelHandlerContext ctx, int status, String message, Map<String, String> headers) {
        ctx.writeAndFlush(Responses.text(ctx.alloc(), "HTTP/1.0", status, message, false, headers))
                .addListener(ChannelFutureListener.CLOSE);
    }

    /** The connected source client: its pipe and its decoding thread. */
    private static final class Client implements Session {
        final ChannelHandlerContext ctx;
        final String peer;

        /**
         * The DJ's name and display name as metadata, when the login check named them; else empty.
         */
        final Map<String, String> identity;

        final LivePipe pipe;
        final long since = System.currentTimeMillis();
        final String name;

        /** The input this client feeds; a reload moves it to the new station's input. */
        volatile LiveInput owner;

        private Thread thread;

        /**
         * Bytes of stream received so far (event loop writes, the decoding thread reads at the
         * end).
         */
        private volatile long received;

        Client(LiveInput owner, ChannelHandlerContext ctx, String peer, Login login) {
            this.owner = owner;
            this.ctx = ctx;
            this.peer = peer;
            this.name = login.named() ? login.displayName() : login.user();
            this.identity =
                    login.named()
                            ? Map.of(USERNAME, login.username(), DISPLAY_NAME, login.displayName())
                            : Map.of();
            this.pipe =
                    new LivePipe(
                            256 * 1024,
                            LivePipe.seconds(owner.timeoutSeconds),
                            () -> ctx.channel().config().setAutoRead(false),
                            () -> ctx.channel().config().setAutoRead(true));
        }

        void start(String contentType) {
            // A platform thread: the decoder spends its time in native code, which would pin a
            // virtual one.
            thread =
                    Thread.ofPlatform()
                            .daemon()
                            .name("input.harbor " + owner.path)
                            .start(() -> decode(contentType));
        }

        @Override
        public void feed(ByteBuf data) {
            received += data.readableBytes();
            pipe.offer(data);
        }

        @Override
        public void tags(Map<String, String> tags) {
            owner.tags(tags);
        }

        @Override
        public void disconnected() {
            pipe.finish();
        }

        private void decode(String contentType) {
            LiveInput first = owner;
            try {
                LiveDecoding.run(
                        first.decoder, pipe, contentType, first.format, null, null, () -> owner);
            } catch (IOException | RuntimeException e) {
                // A client that went silent makes the decoder fail on a stream cut short: the
                // timeout is the news.
                if (received == 0 && !pipe.timedOut()) {
                    log.info("input.harbor {}: {} left before sending any audio", owner.path, peer);
                } else if (!pipe.timedOut()) {
                    log.warn(
                            "input.harbor {}: stream from {} cannot be decoded, disconnecting it: {}",
                            owner.path,
                            peer,
                            e.getMessage());
                }
            } finally {
                LiveInput in = owner;
                if (pipe.timedOut()) {
                    log.warn(
                            "input.harbor {}: {} sent nothing for {} s (timeout); disconnecting it",
                            in.path,
                            peer,
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
