package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

    /**
     * REQUESTS: reading requests, heads and bodies ({@link RequestReader}).
     * OFF_LOOP: waiting for the script's code (a login check, a handler) to answer on another thread.
     * BUSY: streaming a reply ({@link StreamedBody}).
     * WEBCAST: a browser DJ's WebSocket, read by the {@link WebcastConnection} in front of this handler.
     */
    private enum State { REQUESTS, OFF_LOOP, BUSY, LISTENER, INGEST, WEBCAST, CLOSED }

    private final HarborServer server;
    private final Runnable checkDeadline = this::checkDeadline;
    private ChannelHandlerContext ctx;
    private String peer;
    private InetAddress address;
    private boolean counted;
    /** Refused over a cap, its 503 sent and our side shut: what it sends now is read only to be dropped. */
    private boolean refusedAnswered;
    private final RequestReader reader = new RequestReader(RequestReader.SYSTEM_CLOCK);
    private ReplyWriter replies;
    private State state = State.REQUESTS;
    /** The request being answered. */
    private RequestHead head;
    private HarborIngest.Session ingest;
    /** One timer for the reader's deadline, moved only when it would fire too late (see {@link #armTimer}). */
    private ScheduledFuture<?> timer;
    private long timerAt;
    /** Reads paused while the script's code runs off the loop, since bytes came meanwhile. */
    private boolean readsPaused;

    HarborConnection(HarborServer server) {
        this.server = server;
    }

    /** The client's address, named on first use: most requests are never logged. */
    private String peer() {
        if (peer == null) peer = peerName(ctx.channel());
        return peer;
    }

    /** A client as the log names it: address and port. */
    static String peerName(Channel ch) {
        java.net.SocketAddress a = ch.remoteAddress();
        return a instanceof InetSocketAddress i ? i.getAddress().getHostAddress() + ":" + i.getPort() : String.valueOf(a);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.replies = new ReplyWriter(ctx);
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
        reader.await(RequestReader.Wait.HEAD, limits.headTimeoutNanos());
        armTimer();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        onClose();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        replies.wake();
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
            reader.add(ctx.alloc(), in, server.limits());
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
        while (state == State.REQUESTS) {
            switch (reader.next(server.limits())) {
                case MORE -> {
                    armTimer();
                    return;
                }
                case HEAD -> {
                    head = reader.head();
                    dispatch();
                }
                case BODY -> respondToRoute(reader.takeBody());
                default -> {
                    fail(reader.status(), reader.message());
                    return;
                }
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
        // An ordinary request: its body is read next, then it goes to a route.
        if (!reader.expectBody(server.maxBody())) fail(reader.status(), reader.message());
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
                            ByteBuf rest = reader.handOver(); // not needed from now: the stream goes straight to the input
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
        reader.stopWaiting();
        ByteBuf rest = reader.retainedRest();
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
            state = State.REQUESTS;
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
            reader.clear();
            ctx.writeAndFlush(mount.responseHead(ctx.alloc(), head)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        state = State.LISTENER;
        reader.stopWaiting();
        reader.clear();
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
        reader.stopWaiting();
        OffLoopCall.forConnection(ctx, server.callbacks(), timeoutNanos, work, () -> {
            readsPaused = false; // resumed by forConnection
            return state == State.CLOSED;
        }, r -> {
            then.accept(r);
            if (state == State.REQUESTS) processSafely(); // requests that came meanwhile
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
                after(replies.staticFile(head, file));
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
                state = State.REQUESTS;
                switch (r.outcome()) {
                    case ANSWERED -> answer(route, req, r.value());
                    case TIMED_OUT -> {
                        log.warn("harbor: handler of {} {} on port {} did not answer {} within {} s "
                                        + "(settings.harbor.handlerTimeout); answered 503", route.method(), route.pattern(),
                                server.port(), peer(), RequestReader.secondsText(timeout));
                        reply(HttpReply.text(503, "the handler did not answer in time"));
                    }
                    case FAILED -> {
                        server.handlerFailed(route, r.error());
                        reply(HttpReply.text(500, "internal error"));
                    }
                }
            }, ReplyWriter::discard);
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

    private void reply(HttpReply r) {
        after(replies.reply(head, r));
    }

    /** The connection as a reply left it. */
    private void after(ReplyWriter.After a) {
        switch (a) {
            case OPEN -> { }
            case CLOSING -> state = State.CLOSED;
            case STREAMING -> {
                // The connection takes no new request meanwhile; if it closed already, it stays closed.
                if (state != State.CLOSED) state = State.BUSY;
                reader.stopWaiting();
            }
        }
    }

    // ---------------------------------------------------------------- deadlines, refusals, closing

    /** Makes the timer fire by the reader's deadline, then {@link #checkDeadline} says what it came to. */
    private void armTimer() {
        long at = reader.deadline();
        // One timer per connection, moved only when it would fire too late: a keep-alive request costs no timer.
        if (timer == null || timerAt - at > 0) {
            if (timer != null) timer.cancel(false);
            timer = ctx.executor().schedule(checkDeadline, at - System.nanoTime(), TimeUnit.NANOSECONDS);
            timerAt = at;
        }
    }

    private void checkDeadline() {
        timer = null;
        if (reader.waiting() == RequestReader.Wait.NONE || state == State.CLOSED) return;
        HarborLimits limits = server.limits();
        RequestReader.Wait what = reader.waiting();
        switch (reader.overdue(limits)) {
            case MORE -> armTimer(); // the deadline moved on meanwhile (a body's bytes came)
            case REFUSED -> fail(reader.status(), reader.message());
            default -> {
                if (what == RequestReader.Wait.HEAD) {
                    log.debug("harbor: {} sent nothing within {} s; closed", peer(),
                            RequestReader.secondsText(limits.headTimeoutNanos()));
                } else {
                    log.debug("harbor: keep-alive connection of {} idle for {} s; closed", peer(),
                            RequestReader.secondsText(limits.idleTimeoutNanos()));
                }
                close();
            }
        }
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
        reader.clear();
    }

    private void fail(int status, String message) {
        if (status >= 400 && status != 404) log.info("harbor: {} from {}: {}", status, peer(), message);
        state = State.CLOSED;
        ctx.writeAndFlush(Responses.text(ctx.alloc(), "HTTP/1.1", status, message, false, Map.of()))
                .addListener(ChannelFutureListener.CLOSE);
        reader.clear();
    }

    private void close() {
        state = State.CLOSED;
        ctx.close();
    }

    private void onClose() {
        state = State.CLOSED;
        reader.stopWaiting();
        if (timer != null) {
            timer.cancel(false); // a closed connection leaves no task behind on its loop
            timer = null;
        }
        if (counted) {
            counted = false;
            server.connections().release(address);
        }
        if (replies != null) replies.wake();
        if (ingest != null) ingest.disconnected();
        reader.release();
    }
}
