package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.groovecast.net.harbor.clients.ConnectionCount;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.files.StaticFile;
import org.groovecast.net.harbor.http.ClientAddress;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.RequestReader;
import org.groovecast.net.harbor.http.Responses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to a harbor port, read on its event loop: the one handler of ours in its pipeline
 * (docs/decisions/0001), which keeps the connection's state and routes between plain classes that
 * do one job each. {@link RequestReader} reads request heads and bodies from the bytes (so that
 * Icecast's {@code SOURCE} requests work); then the connection becomes a listener ({@link
 * ListenerLogin}), a live source ({@link IngestHandOff}), or a series of ordinary keep-alive
 * requests: title updates ({@link TitleUpdates}), the script's routes and what the port serves
 * itself ({@link RouteResponder}), answered by {@link ReplyWriter}. Bad input gets its status (400,
 * 404, 408, 411, 413, 431) and ends this connection only. On a port several stations of the process
 * share ({@link SharedPort}), each request goes to the station its path is for.
 *
 * <p>What a client may hold is bounded ({@link HarborLimits}): a connection over the port's caps is
 * answered 503 at once ({@link OverCapRefusal}); a head must be complete within the head timeout
 * and a keep-alive connection send its next request within the idle timeout (listeners and DJs have
 * neither); an address that failed too many logins gets 429. Logins and handlers that run the
 * script's code run off the event loop ({@link OffLoopCall}), the connection's reads paused
 * meanwhile.
 */
final class HarborConnection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    /**
     * REQUESTS: reading requests, heads and bodies ({@link RequestReader}). OFF_LOOP: waiting for
     * the script's code (a login check, a handler) to answer on another thread. BUSY: streaming a
     * reply ({@link StreamedBody}). WEBCAST: a browser DJ's WebSocket, read by the {@link
     * WebcastConnection} in front of this handler.
     */
    private enum State {
        REQUESTS,
        OFF_LOOP,
        BUSY,
        LISTENER,
        INGEST,
        WEBCAST,
        CLOSED
    }

    /** Whose connection count and limits admitted the connection: released there. */
    private final HarborServer admitted;

    /** The port several stations share, or null: then {@link #server} is its only harbor. */
    private final SharedPort shared;

    /** The station's harbor answering the request: on a shared port, its path's station's. */
    private HarborServer server;

    private final Runnable checkDeadline = this::checkDeadline;
    private ChannelHandlerContext ctx;
    private String peer;

    /** The socket's peer: the client, or a proxy in front of it. */
    private InetAddress peerAddress;

    /** The client of the request being answered ({@link ClientAddress}). */
    private InetAddress address;

    private boolean counted;

    /**
     * The address the connection counts under against {@code maxConnectionsPerAddress}: its peer,
     * or for a trusted proxy's connection the client of its latest request (null before the first).
     */
    private InetAddress countedAs;

    /**
     * Refused over a cap, its 503 sent and our side shut: what it sends now is read only to be
     * dropped.
     */
    private boolean refusedAnswered;

    private final RequestReader reader = new RequestReader(RequestReader.SYSTEM_CLOCK);
    private ReplyWriter replies;
    private State state = State.REQUESTS;

    /** The request being answered. */
    private RequestHead head;

    private HarborIngest.Session ingest;

    /**
     * One timer for the reader's deadline, moved only when it would fire too late (see {@link
     * #armTimer}).
     */
    private ScheduledFuture<?> timer;

    private long timerAt;

    /** Reads paused while the script's code runs off the loop, since bytes came meanwhile. */
    private boolean readsPaused;

    HarborConnection(HarborServer server) {
        this(server, null);
    }

    /**
     * A connection to a port {@code shared} by several stations (null: {@code first}'s alone),
     * admitted under {@code first}'s limits.
     */
    HarborConnection(HarborServer first, SharedPort shared) {
        this.admitted = first;
        this.server = first;
        this.shared = shared;
    }

    /**
     * The client as the log names it, on first use (most requests are never logged): its address
     * and port, or the address alone for a client a trusted proxy named.
     */
    String peer() {
        if (peer == null)
            peer = address == peerAddress ? peerName(ctx.channel()) : address.getHostAddress();
        return peer;
    }

    /** A client as the log names it: address and port. */
    static String peerName(Channel ch) {
        java.net.SocketAddress a = ch.remoteAddress();
        return a instanceof InetSocketAddress i
                ? i.getAddress().getHostAddress() + ":" + i.getPort()
                : String.valueOf(a);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.replies = new ReplyWriter(ctx);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        peerAddress =
                ctx.channel().remoteAddress() instanceof InetSocketAddress i
                        ? i.getAddress()
                        : InetAddress.getLoopbackAddress();
        address = peerAddress;
        HarborLimits limits = admitted.limits();
        // A proxy's connections count against the clients it names, not against the proxy.
        boolean viaProxy = admitted.trustedProxies().trusts(peerAddress);
        ConnectionCount.Admission admission =
                viaProxy
                        ? admitted.connections().acquireUnattributed(peerAddress, limits)
                        : admitted.connections().acquire(peerAddress, limits);
        if (admission != ConnectionCount.Admission.ADMITTED) {
            state = State.CLOSED;
            OverCapRefusal.refuse(this, admission);
            return;
        }
        counted = true;
        countedAs = viaProxy ? null : peerAddress;
        reader.await(RequestReader.Wait.HEAD, limits.headTimeoutNanos());
        armTimer();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        onClose();
    }

    /**
     * The last this handler hears of its channel, also when an end never reached it (a handler in
     * front that kept {@code channelInactive} to itself): a request's bytes still held go back.
     */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive() && state != State.CLOSED) onClose();
        else reader.release();
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
            if (state == State.LISTENER
                    || state == State.CLOSED
                    || state == State.BUSY
                    || state == State.WEBCAST) return;
            reader.add(ctx.alloc(), in, server.limits());
        } finally {
            in.release();
        }
        if (state == State.OFF_LOOP) {
            // Kept until the check or handler answers; no more is read meanwhile. Paused only once
            // something comes, so that a request with nothing behind it costs no change of
            // interest.
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
                case BODY -> RouteResponder.respond(this, reader.takeBody());
                default -> {
                    fail(reader.status(), reader.message());
                    return;
                }
            }
        }
    }

    private void dispatch() {
        if (shared != null) server = shared.serverFor(head);
        if (!clientKnown()) return;
        String method = head.method();
        if (WebcastConnection.wanted(head)) {
            HarborIngest in = server.ingest(head.path());
            if (in != null) {
                IngestHandOff.webcast(this, in);
                return;
            }
        }
        if (method.equals("SOURCE") || method.equals("PUT")) {
            HarborIngest in = server.ingest(head.path());
            if (in != null) {
                IngestHandOff.source(this, in);
                return;
            }
            if (method.equals("SOURCE")) {
                fail(404, "no live input on " + head.path());
                return;
            }
        }
        if ((method.equals("GET") || method.equals("HEAD"))
                && head.path().equals(TitleUpdates.ADMIN_METADATA)) {
            TitleUpdates.adminMetadata(this, head.query());
            return;
        }
        if (method.equals("GET") && head.path().equals(AdminCgi.PATH)) {
            TitleUpdates.adminCgi(this);
            return;
        }
        if (method.equals("GET") && IcecastAdmin.handles(head.path())) {
            IcecastAdmin.handle(this);
            return;
        }
        HarborMount mount =
                method.equals("GET") || method.equals("HEAD") ? server.mount(head.path()) : null;
        if (mount != null) {
            ListenerLogin.listen(this, mount);
            return;
        }
        // An ordinary request: its body is read next, then it goes to a route.
        if (!reader.expectBody(server.maxBody())) fail(reader.status(), reader.message());
    }

    /**
     * Names the client of the request just read ({@link ClientAddress}) and counts the connection
     * under it; false when that client holds its cap of connections already (answered 503, closed).
     */
    private boolean clientKnown() {
        // Trust, counting and caps are the port's: on a shared port, the first station's.
        InetAddress client = ClientAddress.of(peerAddress, head, admitted.trustedProxies());
        if (!client.equals(address)) {
            address = client;
            peer = null;
        }
        if (!counted || client.equals(countedAs)) return true;
        // Only a trusted proxy's connection gets here: each request may be another client's.
        ConnectionCount.Admission a =
                admitted.connections().attribute(countedAs, client, admitted.limits());
        if (a != ConnectionCount.Admission.ADMITTED) {
            closeWith(
                    503,
                    "too many connections from your address; try again later",
                    Map.of("Retry-After", "5"));
            return false;
        }
        countedAs = client;
        return true;
    }

    // ---------------------------------------------------------------- what its parts do with it

    // ListenerLogin, IngestHandOff, TitleUpdates, RouteResponder and OverCapRefusal are functions
    // of this connection, not objects of their own (none is allocated per connection or request):
    // they read its request and move it on through these, which keep its state in one place.

    HarborServer server() {
        return server;
    }

    /**
     * On a shared port, the request is for the station whose mount or live input {@code path} is (a
     * title update naming its mount in a form body), if any; else as it was routed.
     */
    void serveMount(String path) {
        if (shared == null) return;
        HarborServer owner = shared.owner(path);
        if (owner != null) server = owner;
    }

    ChannelHandlerContext ctx() {
        return ctx;
    }

    /** The request being answered. */
    RequestHead head() {
        return head;
    }

    /**
     * The client of the request being answered: the socket's peer, or behind a trusted proxy the
     * client it names ({@link ClientAddress}). What logs, sessions, caps and bans see.
     */
    InetAddress address() {
        return address;
    }

    /** The socket's peer: the client, or the proxy in front of it. */
    InetAddress peerAddress() {
        return peerAddress;
    }

    /** A listener now: the mount writes to it, and what it sends is dropped. */
    void becomeListener() {
        state = State.LISTENER;
        reader.stopWaiting();
        reader.clear();
    }

    /**
     * A source admitted: the live input takes the connection, with the stream's bytes that came
     * with its head.
     */
    void becomeIngest(HarborIngest in, RequestHead h, Login login) {
        state = State.INGEST;
        ByteBuf rest =
                reader.handOver(); // not needed from now: the stream goes straight to the input
        ingest = SourceLogin.handOver(in, h, ctx, peer(), login, rest);
        if (ingest == null)
            state = State.CLOSED; // refused; the answer is on its way and the connection closing
    }

    /**
     * A browser DJ's WebSocket takes the connection over; returns what came behind the head, or
     * null.
     */
    ByteBuf becomeWebcast() {
        state = State.WEBCAST;
        reader.stopWaiting();
        return reader.retainedRest();
    }

    /**
     * An off-loop call answered a request of a connection kept alive: it reads requests again after
     * the reply.
     */
    void takeRequestsAgain() {
        state = State.REQUESTS;
    }

    /**
     * Refused over a cap, its 503 sent and our side shut: what it sends now is read only to be
     * dropped.
     */
    void refusalAnswered() {
        refusedAnswered = true;
    }

    /**
     * Runs {@code work} on a virtual thread, the connection's reads paused once anything more
     * arrives (what arrived is kept), and continues with its result on the loop, then with the
     * requests that came meanwhile. A connection that closed meanwhile is forgotten, what the work
     * answered passed to {@code discard} (as is an answer past the deadline).
     */
    <T> void offLoop(
            long timeoutNanos,
            Supplier<T> work,
            Consumer<OffLoopCall.Result<T>> then,
            Consumer<? super T> discard) {
        state = State.OFF_LOOP;
        reader.stopWaiting();
        OffLoopCall.forConnection(
                ctx,
                server.callbacks(),
                timeoutNanos,
                work,
                () -> {
                    readsPaused = false; // resumed by forConnection
                    return state == State.CLOSED;
                },
                r -> {
                    then.accept(r);
                    if (state == State.REQUESTS) processSafely(); // requests that came meanwhile
                },
                discard);
    }

    /** Answers 429 if the address failed too many logins lately; returns whether it did. */
    boolean tooManyFailures(boolean keepAlive) {
        long retry = server.authFailures().retryAfter(address, server.limits());
        if (retry == 0) return false;
        String text = "too many failed logins from your address; try again in " + retry + " s";
        Map<String, String> h = Map.of("Retry-After", Long.toString(retry));
        if (keepAlive) reply(new HttpReply(429, "text/plain; charset=utf-8", h, text + "\n"));
        else closeWith(429, text, h);
        return true;
    }

    void failedLogin() {
        server.authFailures().failed(address, server.limits());
    }

    static Map<String, String> basicRealm(String realm) {
        return Map.of("WWW-Authenticate", "Basic realm=\"" + realm + "\"");
    }

    // ---------------------------------------------------------------- replies

    void reply(HttpReply r) {
        after(replies.reply(head, r));
    }

    void sendStaticFile(StaticFile file) {
        after(replies.staticFile(head, file));
    }

    /** The connection as a reply left it. */
    private void after(ReplyWriter.After a) {
        switch (a) {
            case OPEN -> {}
            case CLOSING -> state = State.CLOSED;
            case STREAMING -> {
                // The connection takes no new request meanwhile; if it closed already, it stays
                // closed.
                if (state != State.CLOSED) state = State.BUSY;
                reader.stopWaiting();
            }
        }
    }

    // ---------------------------------------------------------------- deadlines, refusals, closing

    /**
     * Makes the timer fire by the reader's deadline, then {@link #checkDeadline} says what it came
     * to.
     */
    private void armTimer() {
        long at = reader.deadline();
        // One timer per connection, moved only when it would fire too late: a keep-alive request
        // costs no timer.
        if (timer == null || timerAt - at > 0) {
            if (timer != null) timer.cancel(false);
            timer =
                    ctx.executor()
                            .schedule(checkDeadline, at - System.nanoTime(), TimeUnit.NANOSECONDS);
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
                    log.debug(
                            "harbor: {} sent nothing within {} s; closed",
                            peer(),
                            RequestReader.secondsText(limits.headTimeoutNanos()));
                } else {
                    log.debug(
                            "harbor: keep-alive connection of {} idle for {} s; closed",
                            peer(),
                            RequestReader.secondsText(limits.idleTimeoutNanos()));
                }
                close();
            }
        }
    }

    /** Answers {@code status} with a line of text in HTTP/1.0, then closes. */
    void closeWith(int status, String message, Map<String, String> headers) {
        endWith(Responses.text(ctx.alloc(), "HTTP/1.0", status, message, false, headers));
    }

    /** An error answer, logged (but a 404): the connection is closed after it. */
    void fail(int status, String message) {
        if (status >= 400 && status != 404)
            log.info("harbor: {} from {}: {}", status, peer(), message);
        endWith(Responses.text(ctx.alloc(), "HTTP/1.1", status, message, false, Map.of()));
    }

    /** Writes {@code answer}, the last of the connection, and closes once it is out. */
    void endWith(ByteBuf answer) {
        state = State.CLOSED;
        ctx.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
        reader.clear();
    }

    void close() {
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
            admitted.connections().release(countedAs);
        }
        if (replies != null) replies.wake();
        if (ingest != null) ingest.disconnected();
        reader.release();
    }
}
