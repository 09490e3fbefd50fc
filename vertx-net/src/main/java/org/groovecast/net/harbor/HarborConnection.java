package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.groovecast.net.BasicAuth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to a harbor port, read on its event loop: request heads are parsed here (so that
 * Icecast's {@code SOURCE} requests work), then the connection becomes a listener, a live source,
 * or a series of ordinary keep-alive requests answered by the script's routes. Bad input gets its
 * status (400, 404, 408, 411, 413, 431) and ends this connection only.
 *
 * <p>What a client may hold is bounded ({@link HarborLimits}): a connection over the port's caps
 * is answered 503 at once; a head must be complete within the head timeout and a keep-alive
 * connection send its next request within the idle timeout (listeners and DJs have neither); an
 * address that failed too many logins gets 429. Logins and handlers that run the script's code run
 * off the event loop ({@link OffLoopCall}), the connection's reads paused meanwhile.
 */
final class HarborConnection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);
    static final int MAX_HEAD = 16 * 1024;
    static final ByteBuf END = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(new byte[] {13, 10, 13, 10}));
    /** What the harbor takes, as Icecast says it (libshout reads PUT and SOURCE from it). */
    private static final String ALLOW = "GET, HEAD, POST, PUT, OPTIONS, SOURCE";
    /**
     * How long a connection refused over a cap that sends nothing is kept for its 503 to be read;
     * one that sends its request is closed once that is read (closing with it unread would reset
     * the connection, and the 503 with it). Short, since a flood of refused connections holds its
     * descriptors that long.
     */
    private static final long REFUSED_LINGER_MS = 250;
    /** How long a listener mount's {@code auth:} function may take. */
    private static final long LISTENER_AUTH_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final int STREAM_CHUNK = 64 * 1024;

    /**
     * OFF_LOOP: waiting for the script's code (a login check, a handler) to answer on another thread.
     * WEBCAST: a browser DJ's WebSocket, read by the {@link WebcastConnection} in front of this handler.
     */
    private enum State { HEAD, BODY, OFF_LOOP, BUSY, LISTENER, INGEST, WEBCAST, CLOSED }

    /** What the connection waits for now, and so what its deadline means. */
    private enum Wait { NONE, HEAD, IDLE, BODY }

    private final HarborServer server;
    private final Runnable checkDeadline = this::checkDeadline;
    private ChannelHandlerContext ctx;
    private String peer;
    private InetAddress address;
    private boolean counted;
    /** Refused over a cap, its 503 sent and our side shut: what it sends now is read only to be dropped. */
    private boolean refusedAnswered;
    private ByteBuf acc = Unpooled.EMPTY_BUFFER;
    private State state = State.HEAD;
    private RequestHead head;
    private int bodyLength;
    private HarborIngest.Session ingest;
    private Wait wait = Wait.NONE;
    private long deadline;
    private ScheduledFuture<?> timer;
    private long timerAt;
    /** Reads paused while the script's code runs off the loop, since bytes came meanwhile. */
    private boolean readsPaused;
    /** The thread writing a streamed reply, woken when the socket drains. */
    private volatile Thread streamer;

    HarborConnection(HarborServer server) {
        this.server = server;
    }

    /** The client's address, named on first use: most requests are never logged. */
    private String peer() {
        if (peer == null) {
            java.net.SocketAddress a = ctx.channel().remoteAddress();
            peer = a instanceof InetSocketAddress i ? i.getAddress().getHostAddress() + ":" + i.getPort() : String.valueOf(a);
        }
        return peer;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        address = ctx.channel().remoteAddress() instanceof InetSocketAddress i ? i.getAddress()
                : InetAddress.getLoopbackAddress();
        HarborLimits limits = server.limits();
        ConnectionCount.Admission admission = server.connections().acquire(address, limits);
        if (admission != ConnectionCount.Admission.ADMITTED) {
            refuseConnection(admission);
            return;
        }
        counted = true;
        await(Wait.HEAD, limits.headTimeoutNanos());
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        onClose();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Thread t = streamer;
        if (t != null) LockSupport.unpark(t);
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable e) {
        // A peer that resets is routine on a public port: not worth an error line each.
        log.debug("harbor: connection from {}: {}", peer(), e.toString());
        ctx.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            io.netty.util.ReferenceCountUtil.release(msg);
            return;
        }
        if (state == State.INGEST) {
            ingest.feed(in); // ownership passes on: the live input reads the socket's own buffers
            return;
        }
        try {
            if (refusedAnswered) {
                ctx.close(); // its request is read: closing no longer resets the connection
                return;
            }
            // A listener may send anything, a closing or streaming connection is past reading.
            if (state == State.LISTENER || state == State.CLOSED || state == State.BUSY || state == State.WEBCAST) return;
            if (acc == Unpooled.EMPTY_BUFFER) {
                acc = ctx.alloc().buffer(Math.max(512, in.readableBytes()));
            } else if (!acc.isReadable()) {
                acc.clear(); // every request so far consumed: start the buffer over rather than grow it
            } else {
                acc.discardSomeReadBytes();
            }
            acc.writeBytes(in);
        } finally {
            in.release();
        }
        if (state == State.OFF_LOOP) {
            // Kept until the check or handler answers; no more is read meanwhile. Paused only once
            // something comes, so that a request with nothing behind it costs no change of interest.
            if (!readsPaused) {
                readsPaused = true;
                ctx.channel().config().setAutoRead(false);
            }
            return;
        }
        if (wait == Wait.BODY) deadline = System.nanoTime() + server.limits().idleTimeoutNanos();
        processSafely();
    }

    private void processSafely() {
        try {
            process();
        } catch (RuntimeException e) {
            // A bug must not leave a client without an answer, nor go unnoticed.
            log.warn("harbor: request from {} failed: {}", peer(), e.toString(), e);
            if (state != State.CLOSED) fail(500, "internal error");
        }
    }

    /** Handles as many complete requests as the accumulated bytes hold. */
    private void process() {
        while (state == State.HEAD || state == State.BODY) {
            if (state == State.HEAD) {
                if (!acc.isReadable()) {
                    if (wait != Wait.IDLE) await(Wait.IDLE, server.limits().idleTimeoutNanos());
                    return;
                }
                int end = ByteBufUtil.indexOf(END, acc);
                if (end < 0) {
                    if (acc.readableBytes() > MAX_HEAD) fail(431, "request head over 16 KiB");
                    else if (wait != Wait.HEAD) await(Wait.HEAD, server.limits().headTimeoutNanos()); // a head has begun
                    return;
                }
                if (end - acc.readerIndex() > MAX_HEAD) {
                    fail(431, "request head over 16 KiB");
                    return;
                }
                try {
                    head = RequestHead.parse(acc, acc.readerIndex(), end);
                } catch (RequestHead.Malformed e) {
                    fail(400, e.getMessage());
                    return;
                }
                acc.readerIndex(end + 4);
                dispatch();
            } else {
                if (acc.readableBytes() < bodyLength) {
                    if (wait != Wait.BODY) await(Wait.BODY, server.limits().idleTimeoutNanos());
                    return;
                }
                byte[] body = new byte[bodyLength];
                acc.readBytes(body);
                respondToRoute(body);
            }
        }
    }

    private void dispatch() {
        String method = head.method();
        if (WebcastConnection.wanted(head)) {
            HarborIngest in = server.ingest(head.path());
            if (in != null) {
                webcast(in);
                return;
            }
        }
        if (method.equals("SOURCE") || method.equals("PUT")) {
            HarborIngest in = server.ingest(head.path());
            if (in != null) {
                source(in);
                return;
            }
            if (method.equals("SOURCE")) {
                fail(404, "no live input on " + head.path());
                return;
            }
        }
        if ((method.equals("GET") || method.equals("HEAD")) && head.path().equals("/admin/metadata")) {
            adminMetadata(head.query());
            return;
        }
        if (method.equals("GET") && head.path().equals(AdminCgi.PATH)) {
            AdminCgi.handle(server, head.query(), address, peer(), adminReplies);
            return;
        }
        HarborMount mount = method.equals("GET") || method.equals("HEAD") ? server.mount(head.path()) : null;
        if (mount != null) {
            listen(mount);
            return;
        }
        long length;
        try {
            length = head.contentLength();
        } catch (RequestHead.Malformed e) {
            fail(400, e.getMessage());
            return;
        }
        if (length < 0) {
            fail(411, "chunked request bodies are not accepted; send a Content-Length");
            return;
        }
        if (length > server.maxBody()) {
            fail(413, "request body over " + server.maxBody() + " bytes");
            return;
        }
        bodyLength = (int) length;
        state = State.BODY;
    }

    /**
     * {@code OPTIONS *} (and OPTIONS on a path no route takes): 204 with what the harbor takes, as
     * Icecast 2.5 answers it, so that libshout's probe before each connection and title update is
     * no error; its {@code Upgrade: TLS} is ignored (RFC 9110 7.8), so it goes on in plain text.
     */
    private void options() {
        if (server.mount(head.path()) != null) {
            // A browser's preflight before a web player asks for the stream with Icy-MetaData.
            reply(new HttpReply(204, null, Map.of("Allow", ALLOW, "Accept-Encoding", "identity",
                    "Access-Control-Allow-Origin", "*", "Access-Control-Allow-Methods", "GET, HEAD, OPTIONS",
                    "Access-Control-Allow-Headers", "Icy-MetaData"), null));
            return;
        }
        reply(new HttpReply(204, null, Map.of("Allow", ALLOW, "Accept-Encoding", "identity"), null));
    }

    // ---------------------------------------------------------------- logins

    /** A source client: its credentials checked off the loop, then handed to the live input. */
    private void source(HarborIngest in) {
        if (tooManyFailures(false)) return;
        String authorization = head.header("authorization");
        if (authorization == null) {
            // libshout asks once without credentials, to learn that Basic is wanted: no failed login, no warning.
            log.debug("input.harbor {}: {} asked without credentials; answered 401", in.path(), peer());
            closeWith(401, "this mount needs a user and password", basicRealm("Groovecast"));
            return;
        }
        RequestHead h = head;
        BasicAuth.Credentials credentials = BasicAuth.parse(authorization);
        offLoop(SourceLogin.timeoutNanos(in), () -> credentials == null ? null : in.login(credentials.user(), credentials.password()),
                r -> {
                    Login login = r.value();
                    boolean yes = login != null && login.allowed();
                    switch (SourceLogin.verdict(r, yes, server, address, in, log, peer(), "bad user or password")) {
                        case YES -> {
                            state = State.INGEST;
                            ByteBuf rest = acc; // not needed from now: the stream goes straight to the input
                            acc = Unpooled.EMPTY_BUFFER;
                            ingest = SourceLogin.handOver(in, h, ctx, peer(), login, rest);
                            if (ingest == null) state = State.CLOSED; // refused; the answer is on its way and the connection closing
                        }
                        case NO -> closeWith(401, "wrong user or password", basicRealm("Groovecast"));
                        case TIMED_OUT -> closeWith(503, "the login check did not answer in time", Map.of());
                        case FAILED -> closeWith(500, "the login check failed", Map.of());
                    }
                }, null);
    }

    /** A browser DJ: the WebSocket takes the connection over; its login comes with its hello. */
    private void webcast(HarborIngest in) {
        if (tooManyFailures(false)) return;
        state = State.WEBCAST;
        wait = Wait.NONE;
        ByteBuf rest = acc.isReadable() ? acc.readRetainedSlice(acc.readableBytes()) : null;
        WebcastConnection.upgrade(server, in, head, ctx, peer(), address, rest);
    }

    /**
     * {@code /admin/metadata?mode=updinfo}: the title from a source client's software, with the
     * source credentials; the parameters in the query (GET) or a form body (POST, which libshout
     * uses once the server allows it).
     */
    private void adminMetadata(Map<String, String> params) {
        String mountName = params.getOrDefault("mount", "");
        HarborIngest in = server.ingest(mountName.startsWith("/") ? mountName : "/" + mountName);
        if (in == null) {
            reply(HttpReply.text(404, "no live input on " + mountName));
            return;
        }
        if (tooManyFailures(true)) return;
        String authorization = head.header("authorization");
        if (authorization == null) {
            reply(new HttpReply(401, "text/plain; charset=utf-8", basicRealm("Groovecast"), "Unauthorized"));
            return;
        }
        adminOffLoop(SourceLogin.timeoutNanos(in), () -> BasicAuth.accepts(authorization, (u, p) -> in.login(u, p).allowed()), r -> {
            SourceLogin.Verdict v = SourceLogin.verdict(r, Boolean.TRUE.equals(r.value()), server, address, in, log,
                    "a title update (/admin/metadata) from " + peer(), "bad user or password");
            AdminCgi.answer(v, in, params, adminReplies,
                    () -> reply(new HttpReply(401, "text/plain; charset=utf-8", basicRealm("Groovecast"), "Unauthorized")));
        });
    }

    /** A title update's off-loop login check; then the connection takes requests again. */
    private <T> void adminOffLoop(long timeoutNanos, Supplier<T> work, Consumer<OffLoopCall.Result<T>> then) {
        offLoop(timeoutNanos, work, r -> {
            state = State.HEAD;
            then.accept(r);
        }, null);
    }

    /** How title updates ({@link AdminCgi}) are answered here: in HTTP, the connection kept alive. */
    private final AdminCgi.Replies adminReplies = new AdminCgi.Replies() {
        @Override
        public boolean refusedForFailures() {
            return tooManyFailures(true);
        }

        @Override
        public <T> void offLoop(long timeoutNanos, Supplier<T> work, Consumer<OffLoopCall.Result<T>> then) {
            adminOffLoop(timeoutNanos, work, then);
        }

        @Override
        public void reply(int status, String text) {
            HarborConnection.this.reply(HttpReply.text(status, text));
        }
    };

    /** A listener of a mount, logged in first if the mount has an {@code auth:} function. */
    private void listen(HarborMount mount) {
        BiPredicate<String, String> auth = mount.auth();
        if (auth == null) {
            attach(mount);
            return;
        }
        if (tooManyFailures(false)) return;
        String authorization = head.header("authorization");
        if (authorization == null) {
            closeWith(401, "this stream needs a user and password", basicRealm(head.path()));
            return;
        }
        check(LISTENER_AUTH_NANOS, "output.harbor " + mount.path(), () -> BasicAuth.accepts(authorization, auth), verdict -> {
            switch (verdict) {
                case YES -> attach(mount);
                case NO -> {
                    failedLogin();
                    log.info("harbor: listener {} refused on {} (bad user or password)", peer(), mount.path());
                    closeWith(401, "this stream needs a user and password", basicRealm(mount.path()));
                }
                case TIMED_OUT -> {
                    log.warn("output.harbor {}: its auth function did not answer within {} s; refused {}", mount.path(),
                            TimeUnit.NANOSECONDS.toSeconds(LISTENER_AUTH_NANOS), peer());
                    closeWith(503, "the login check did not answer in time", Map.of());
                }
                case FAILED -> closeWith(500, "the login check failed", Map.of());
            }
        });
    }

    private void attach(HarborMount mount) {
        if (head.method().equals("HEAD")) {
            // A player's probe: the listener's headers and nothing more; no listener, no onConnect.
            state = State.CLOSED;
            acc.clear();
            ctx.writeAndFlush(mount.responseHead(ctx.alloc(), head)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        state = State.LISTENER;
        wait = Wait.NONE;
        acc.clear();
        mount.attach(ctx, head, peer());
        ctx.flush();
    }

    /** Runs a login check off the loop (see {@link #offLoop}) and continues with its verdict on the loop. */
    private void check(long timeoutNanos, String what, BooleanSupplier check, Consumer<SourceLogin.Verdict> then) {
        offLoop(timeoutNanos, check::getAsBoolean, r -> then.accept(verdict(r, Boolean.TRUE.equals(r.value()), what)), null);
    }

    /** A login check's result as a verdict: {@code yes} says whether its answer admits; a failure is logged. */
    private SourceLogin.Verdict verdict(OffLoopCall.Result<?> r, boolean yes, String what) {
        return switch (r.outcome()) {
            case ANSWERED -> yes ? SourceLogin.Verdict.YES : SourceLogin.Verdict.NO;
            case TIMED_OUT -> SourceLogin.Verdict.TIMED_OUT;
            case FAILED -> {
                log.warn("{}: its auth function failed for {}: {}", what, peer(), r.error().toString());
                yield SourceLogin.Verdict.FAILED;
            }
        };
    }

    /**
     * Runs {@code work} on a virtual thread, the connection's reads paused once anything more
     * arrives (what arrived is kept), and continues with its result on the loop, then with the
     * requests that came meanwhile. A connection that closed meanwhile is forgotten, what the work
     * answered passed to {@code discard} (as is an answer past the deadline).
     */
    private <T> void offLoop(long timeoutNanos, Supplier<T> work, Consumer<OffLoopCall.Result<T>> then,
                             Consumer<? super T> discard) {
        state = State.OFF_LOOP;
        wait = Wait.NONE;
        OffLoopCall.forConnection(ctx, server.callbacks(), timeoutNanos, work, () -> {
            readsPaused = false; // resumed by forConnection
            return state == State.CLOSED;
        }, r -> {
            then.accept(r);
            if (state == State.HEAD) processSafely(); // requests that came meanwhile
        }, discard);
    }

    /** Answers 429 if the address failed too many logins lately; returns whether it did. */
    private boolean tooManyFailures(boolean keepAlive) {
        long retry = server.authFailures().retryAfter(address, server.limits());
        if (retry == 0) return false;
        String text = "too many failed logins from your address; try again in " + retry + " s";
        Map<String, String> h = Map.of("Retry-After", Long.toString(retry));
        if (keepAlive) reply(new HttpReply(429, "text/plain; charset=utf-8", h, text + "\n"));
        else closeWith(429, text, h);
        return true;
    }

    private void failedLogin() {
        server.authFailures().failed(address, server.limits());
    }

    private static Map<String, String> basicRealm(String realm) {
        return Map.of("WWW-Authenticate", "Basic realm=\"" + realm + "\"");
    }

    // ---------------------------------------------------------------- ordinary requests

    private void respondToRoute(byte[] body) {
        state = State.HEAD;
        HarborServer.Match m = server.route(head.method().equals("HEAD") ? "GET" : head.method(), head.path());
        if (m == null && head.method().equals("POST") && head.path().equals("/admin/metadata")) {
            Map<String, String> params = new LinkedHashMap<>(head.query());
            try {
                params.putAll(RequestHead.form(new String(body, java.nio.charset.StandardCharsets.ISO_8859_1)));
            } catch (RequestHead.Malformed e) {
                fail(400, e.getMessage());
                return;
            }
            adminMetadata(params);
            return;
        }
        if (m == null) {
            if (head.method().equals("OPTIONS")) {
                options();
                return;
            }
            Path file;
            try {
                file = server.staticFile(head.path());
            } catch (StaticFiles.Refused r) {
                if (r.status == 400) {
                    fail(400, r.getMessage() + ": " + head.target());
                } else {
                    log.info("harbor: {} from {}: {}: {}", r.status, peer(), r.getMessage(), head.path());
                    reply(HttpReply.text(r.status, r.getMessage()));
                }
                return;
            }
            if (file != null) {
                sendFile(file);
                return;
            }
            HttpReply playlist = head.method().equals("GET") || head.method().equals("HEAD")
                    ? MountPlaylists.answer(head.path(), server, head.header("host"), ctx.channel().localAddress()) : null;
            if (playlist != null) {
                reply(playlist);
                return;
            }
            reply(HttpReply.text(404, "not found: " + head.path()));
            return;
        }
        Route route = m.route();
        if (route.guarded() && tooManyFailures(true)) return;
        HttpRequest req = new HttpRequest(head.method(), head.path(), head.query(), head.headers(), m.params(), body);
        if (route.blocking()) {
            long timeout = server.limits().handlerTimeoutNanos();
            offLoop(timeout, () -> route.handler().apply(req), r -> {
                state = State.HEAD;
                switch (r.outcome()) {
                    case ANSWERED -> answer(route, req, r.value());
                    case TIMED_OUT -> {
                        log.warn("harbor: handler of {} {} on port {} did not answer {} within {} s "
                                        + "(settings.harbor.handlerTimeout); answered 503", route.method(), route.pattern(),
                                server.port(), peer(), secondsText(timeout));
                        reply(HttpReply.text(503, "the handler did not answer in time"));
                    }
                    case FAILED -> {
                        server.handlerFailed(route, r.error());
                        reply(HttpReply.text(500, "internal error"));
                    }
                }
            }, HarborConnection::discard);
            return;
        }
        HttpReply r;
        try {
            r = route.handler().apply(req);
        } catch (RuntimeException e) {
            server.handlerFailed(route, e);
            reply(HttpReply.text(500, "internal error"));
            return;
        }
        answer(route, req, r);
    }

    private void answer(Route route, HttpRequest req, HttpReply r) {
        if (r == null) r = new HttpReply(204, null, Map.of(), null);
        if (route.guarded() && r.status() == 401 && route.attempt().test(req)) failedLogin();
        reply(r);
    }

    /** A reply that will not be sent (its connection closed, or it came too late): a stream in it is closed. */
    private static void discard(HttpReply r) {
        if (r != null && r.data() instanceof InputStream in) {
            try {
                in.close();
            } catch (IOException e) {
                log.debug("harbor: closing an unsent reply's stream: {}", e.toString());
            }
        }
    }

    private void reply(HttpReply r) {
        boolean keepAlive = head.keepAlive();
        boolean bodyless = head.method().equals("HEAD");
        Object data = r.data();
        if (data instanceof Path || data instanceof InputStream) {
            Map<String, String> headers = new LinkedHashMap<>();
            if (r.contentType() != null) headers.put("Content-Type", r.contentType());
            headers.putAll(r.headers());
            if (data instanceof Path p) {
                sendFile(p, r.status(), headers);
            } else if (bodyless) {
                // HEAD of a streamed body (an event stream, say): its head alone, never the endless rest.
                discard(r);
                state = State.CLOSED;
                ctx.writeAndFlush(Responses.head(ctx.alloc(), head.version(), r.status(), headers, -1, false))
                        .addListener(ChannelFutureListener.CLOSE);
            } else {
                stream((InputStream) data, r.status(), headers);
            }
            return;
        }
        // Text goes straight into the response buffer as UTF-8: no intermediate byte array per request.
        CharSequence text = data == null ? "" : data instanceof byte[] ? null : data instanceof CharSequence c ? c : data.toString();
        int length = text != null ? ByteBufUtil.utf8Bytes(text) : ((byte[]) data).length;
        // A 204 has no body, so no length either (RFC 9110 8.6).
        ByteBuf out = Responses.head(ctx.alloc(), head.version(), r.status(), r.contentType(), r.headers(),
                r.status() == 204 ? -1 : length, keepAlive, bodyless ? 0 : length);
        if (!bodyless && r.status() != 204) {
            if (text != null) ByteBufUtil.writeUtf8(out, text);
            else out.writeBytes((byte[]) data);
        }
        if (keepAlive) {
            ctx.writeAndFlush(out, ctx.voidPromise());
        } else {
            state = State.CLOSED;
            ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void sendFile(Path file) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", MimeTypes.of(file));
        sendFile(file, 200, headers);
    }

    /** The file goes from the page cache to the socket (sendfile), never whole into memory. */
    private void sendFile(Path file, int status, Map<String, String> headers) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            reply(HttpReply.text(404, "not found: " + head.path()));
            return;
        }
        boolean keepAlive = head.keepAlive();
        ctx.write(Responses.head(ctx.alloc(), head.version(), status, headers, size, keepAlive), ctx.voidPromise());
        if (head.method().equals("HEAD") || size == 0) {
            finish(keepAlive, ctx.writeAndFlush(Unpooled.EMPTY_BUFFER));
            return;
        }
        finish(keepAlive, ctx.writeAndFlush(new DefaultFileRegion(file.toFile(), 0, size)));
    }

    private void finish(boolean keepAlive, io.netty.channel.ChannelFuture written) {
        if (!keepAlive) {
            state = State.CLOSED;
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * Streams a body of unknown length on a virtual thread, in direct style: read a chunk, write
     * it, and while the socket's queue is over its high-water mark park until the loop says it
     * drained (channelWritabilityChanged). The connection takes no new request meanwhile.
     */
    private void stream(InputStream in, int status, Map<String, String> headers) {
        state = State.BUSY;
        wait = Wait.NONE;
        var ch = ctx.channel();
        ch.writeAndFlush(Responses.head(ctx.alloc(), head.version(), status, headers, -1, false), ch.voidPromise());
        Thread.ofVirtual().name("harbor reply " + peer()).start(() -> {
            streamer = Thread.currentThread();
            try (in) {
                while (ch.isActive()) {
                    ByteBuf out = ctx.alloc().buffer(STREAM_CHUNK);
                    int n;
                    try {
                        n = out.writeBytes(in, STREAM_CHUNK);
                    } catch (IOException | RuntimeException e) {
                        out.release();
                        throw e;
                    }
                    if (n < 0) {
                        out.release();
                        break;
                    }
                    ch.writeAndFlush(out, ch.voidPromise());
                    // Pending bytes of writes from this thread count at once, so this sees what was just queued.
                    while (!ch.isWritable() && ch.isActive()) LockSupport.parkNanos(this, TimeUnit.SECONDS.toNanos(1));
                }
            } catch (Exception e) {
                log.debug("harbor: streaming a response to {} ended: {}", peer(), e.toString());
            } finally {
                streamer = null;
                // Closed once everything written before has gone out.
                ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            }
        });
    }

    // ---------------------------------------------------------------- deadlines, refusals, closing

    /** From now the connection has {@code nanos} for what it waits for, else it is closed (see {@link #checkDeadline}). */
    private void await(Wait what, long nanos) {
        wait = what;
        long at = System.nanoTime() + nanos;
        deadline = at;
        // One timer per connection, moved only when it would fire too late: a keep-alive request costs no timer.
        if (timer == null || timerAt - at > 0) {
            if (timer != null) timer.cancel(false);
            timer = ctx.executor().schedule(checkDeadline, nanos, TimeUnit.NANOSECONDS);
            timerAt = at;
        }
    }

    private void checkDeadline() {
        timer = null;
        if (wait == Wait.NONE || state == State.CLOSED) return;
        long left = deadline - System.nanoTime();
        if (left > 0) {
            timer = ctx.executor().schedule(checkDeadline, left, TimeUnit.NANOSECONDS);
            timerAt = deadline;
            return;
        }
        HarborLimits limits = server.limits();
        switch (wait) {
            case HEAD -> {
                if (acc.isReadable()) {
                    fail(408, "request head not complete within " + secondsText(limits.headTimeoutNanos())
                            + " s (settings.harbor.headTimeout)");
                } else {
                    log.debug("harbor: {} sent nothing within {} s; closed", peer(), secondsText(limits.headTimeoutNanos()));
                    close();
                }
            }
            case BODY -> fail(408, "request body stalled for " + secondsText(limits.idleTimeoutNanos())
                    + " s (settings.harbor.idleTimeout)");
            case IDLE -> {
                log.debug("harbor: keep-alive connection of {} idle for {} s; closed", peer(),
                        secondsText(limits.idleTimeoutNanos()));
                close();
            }
            default -> { }
        }
    }

    private static String secondsText(long nanos) {
        double s = nanos / 1e9;
        return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
    }

    /** Over a cap: a short 503, then the connection goes (its request, if any, read and dropped meanwhile). */
    private void refuseConnection(ConnectionCount.Admission why) {
        state = State.CLOSED;
        String text = why == ConnectionCount.Admission.PORT_FULL ? "the server is at its connection limit"
                : "too many connections from your address";
        ctx.writeAndFlush(Responses.text(ctx.alloc(), "HTTP/1.0", 503, text + "; try again later", false,
                Map.of("Retry-After", "5"))).addListener(f -> {
                    // Half-close: the client reads the answer and its end; a reset now could destroy the 503.
                    if (f.isSuccess() && ctx.channel() instanceof DuplexChannel d) {
                        d.shutdownOutput();
                        refusedAnswered = true;
                    } else {
                        ctx.close();
                    }
                });
        ctx.executor().schedule(this::close, REFUSED_LINGER_MS, TimeUnit.MILLISECONDS);
    }

    private void closeWith(int status, String message, Map<String, String> headers) {
        state = State.CLOSED;
        ctx.writeAndFlush(Responses.text(ctx.alloc(), "HTTP/1.0", status, message, false, headers))
                .addListener(ChannelFutureListener.CLOSE);
        acc.clear();
    }

    private void fail(int status, String message) {
        if (status >= 400 && status != 404) log.info("harbor: {} from {}: {}", status, peer(), message);
        state = State.CLOSED;
        ctx.writeAndFlush(Responses.text(ctx.alloc(), "HTTP/1.1", status, message, false, Map.of()))
                .addListener(ChannelFutureListener.CLOSE);
        acc.clear();
    }

    private void close() {
        state = State.CLOSED;
        ctx.close();
    }

    private void onClose() {
        state = State.CLOSED;
        wait = Wait.NONE;
        if (timer != null) {
            timer.cancel(false); // a closed connection leaves no task behind on its loop
            timer = null;
        }
        if (counted) {
            counted = false;
            server.connections().release(address);
        }
        Thread t = streamer;
        if (t != null) LockSupport.unpark(t);
        if (ingest != null) ingest.disconnected();
        if (acc != Unpooled.EMPTY_BUFFER) acc.release();
        acc = Unpooled.EMPTY_BUFFER;
    }
}
