package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.net.auth.BasicAuth;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.Responses;
import org.groovecast.net.harbor.http.WebSocketHandshake;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A browser DJ on a live input's mount: the webcast protocol of webcast.js and AzuraCast's web DJ
 * over a WebSocket ({@code GET /mount}, {@code Upgrade: websocket}, subprotocol {@code webcast}),
 * on the same port and mount as Icecast source clients. The harbor hands the connection over once
 * it has read the upgrade request ({@link #upgrade}); from then Netty's WebSocket codec reads the
 * frames (masking, fragments, control frames, size limit) and this handler the messages: a {@code
 * hello} first, with the stream's MIME type and the DJ's user and password, checked like an Icecast
 * DJ's login; then binary messages, the encoded stream, which go into the input's live decoding as
 * an Icecast DJ's body does; and {@code metadata} messages, inserted as metadata.
 *
 * <p>Close codes (RFC 6455 7.4): 1002 for a broken protocol (no hello first, a bad frame), 1008 for
 * a refused login, 1009 for a message over {@value #MAX_MESSAGE} bytes (over {@value
 * WebcastFrameLimit#LIMIT} until the login succeeds, {@link WebcastFrameLimit}), 1013 when the
 * mount is taken or the station not running, 1011 when the login check failed.
 *
 * <p>A peer that does not read what it is sent (a stalled socket) costs nothing: a ping is answered
 * only while the socket takes writes (RFC 6455 5.5.3 lets a pong answer the latest ping only), and
 * a close does not wait on a close frame that cannot be written.
 */
final class WebcastConnection extends ChannelDuplexHandler {
    private static final Logger log = LoggerFactory.getLogger(WebcastConnection.class);

    /** The largest message, fragments joined: a browser's recorder sends a few KiB at a time. */
    static final int MAX_MESSAGE = 1 << 20;

    static final String SUBPROTOCOL = "webcast";

    /** Close codes, RFC 6455 7.4.1 (1013 as IANA registered it). */
    private static final int NORMAL = 1000,
            PROTOCOL_ERROR = 1002,
            POLICY = 1008,
            TOO_BIG = 1009,
            SERVER_ERROR = 1011,
            TRY_AGAIN_LATER = 1013;

    private enum State {
        HELLO,
        LOGIN,
        STREAMING,
        CLOSED
    }

    /** How long a close frame may take to go out before the connection is closed without it. */
    static final long CLOSE_BACKSTOP_SECONDS = 5;

    private static final String ENCODER = "webcast-encoder", LIMIT = "webcast-limit";

    private final HarborServer server;
    private final HarborIngest in;
    private final RequestHead head;
    private final String peer;
    private final InetAddress address;

    /**
     * The harbor's handler behind this one: the live input is given its context, so that when it
     * ends the connection (a kick, a silent or undecodable stream) the close passes through {@link
     * #close(ChannelHandlerContext, ChannelPromise)} and the browser gets a close frame.
     */
    private final ChannelHandlerContext harbor;

    private ChannelHandlerContext ctx;
    private State state = State.HELLO;
    private ScheduledFuture<?> helloTimer;

    /** Closes the connection if its close frame has not gone out in time. */
    private ScheduledFuture<?> backstop;

    private HarborIngest.Session session;

    /**
     * Messages decoded from the read that brought the hello: kept while the login runs, reads
     * paused.
     */
    private final ArrayDeque<WebSocketFrame> held = new ArrayDeque<>();

    /** A text message that is not the protocol's is logged once a connection. */
    private boolean badTextLogged;

    private WebcastConnection(
            HarborServer server,
            HarborIngest in,
            RequestHead head,
            String peer,
            InetAddress address,
            ChannelHandlerContext harbor) {
        this.harbor = harbor;
        this.server = server;
        this.in = in;
        this.head = head;
        this.peer = peer;
        this.address = address;
    }

    /** Whether a request asks for a WebSocket ({@code GET} with {@code Upgrade: websocket}). */
    static boolean wanted(RequestHead head) {
        String upgrade = head.header("upgrade");
        return head.method().equals("GET")
                && upgrade != null
                && upgrade.strip().equalsIgnoreCase("websocket");
    }

    /**
     * Answers the upgrade request on {@code harbor}'s connection and puts the WebSocket codec and a
     * webcast handler in front of it, which then reads everything; {@code rest}, what came after
     * the request head, is read first. A request the handshake cannot take is answered with its
     * HTTP status and the connection closed.
     */
    static void upgrade(
            HarborServer server,
            HarborIngest in,
            RequestHead head,
            ChannelHandlerContext harbor,
            String peer,
            InetAddress address,
            ByteBuf rest) {
        String refusal = WebSocketHandshake.refusal(head, SUBPROTOCOL);
        if (refusal != null) {
            if (rest != null) rest.release();
            log.info("input.harbor {}: refused the WebSocket of {}: {}", in.path(), peer, refusal);
            Map<String, String> extra =
                    refusal.startsWith(WebSocketHandshake.VERSION_REFUSAL)
                            ? Map.of("Sec-WebSocket-Version", "13")
                            : Map.of();
            harbor.writeAndFlush(
                            Responses.text(
                                    harbor.alloc(),
                                    "HTTP/1.1",
                                    refusal.startsWith(WebSocketHandshake.VERSION_REFUSAL)
                                            ? 426
                                            : 400,
                                    refusal,
                                    false,
                                    extra))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        harbor.writeAndFlush(
                WebSocketHandshake.accepted(harbor.alloc(), head, SUBPROTOCOL),
                harbor.voidPromise());
        ChannelPipeline p = harbor.pipeline();
        WebSocketDecoderConfig config =
                WebSocketDecoderConfig.newBuilder()
                        .expectMaskedFrames(true)
                        .allowMaskMismatch(false)
                        .allowExtensions(false)
                        .maxFramePayloadLength(MAX_MESSAGE)
                        .closeOnProtocolViolation(false)
                        .withUTF8Validator(true)
                        .build();
        String at = harbor.name();
        // The encoder nearest the socket (behind TLS, if any) writes our frames; the decoder sends
        // none of its own (closeOnProtocolViolation(false)): a bad frame reaches exceptionCaught
        // here.
        p.addBefore(at, ENCODER, new WebSocket13FrameEncoder(false));
        p.addBefore(at, LIMIT, new WebcastFrameLimit());
        p.addBefore(at, "webcast-decoder", new WebSocket13FrameDecoder(config));
        p.addBefore(at, "webcast-aggregator", new WebSocketFrameAggregator(MAX_MESSAGE));
        p.addBefore(at, "webcast", new WebcastConnection(server, in, head, peer, address, harbor));
        // Read on from the encoder's place, not the pipeline's head: on a harbor.tls port the head
        // is
        // the TLS handler, which would take these (already decrypted) bytes for TLS records.
        if (rest != null) p.context(ENCODER).fireChannelRead(rest);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        double seconds = Math.max(1, in.authTimeout());
        helloTimer =
                ctx.executor()
                        .schedule(
                                () -> {
                                    if (state == State.HELLO) {
                                        log.info(
                                                "input.harbor {}: browser DJ {} sent no hello within {} s; closed",
                                                in.path(),
                                                peer,
                                                seconds);
                                        close(PROTOCOL_ERROR, "no hello within " + seconds + " s");
                                    }
                                },
                                (long) (seconds * 1e9),
                                TimeUnit.NANOSECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof WebSocketFrame frame) || state == State.CLOSED) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (state == State.LOGIN && !(frame instanceof PingWebSocketFrame)) {
            held.add(frame);
            return;
        }
        handle(frame);
    }

    private void handle(WebSocketFrame frame) {
        switch (frame) {
            case BinaryWebSocketFrame b -> {
                if (state == State.STREAMING) {
                    session.feed(
                            b.content()); // ownership passes on, as with an Icecast DJ's buffers
                } else {
                    b.release();
                    protocolError("the first message must be a hello, got binary data");
                }
            }
            case TextWebSocketFrame t -> {
                String text = t.text();
                t.release();
                if (state == State.HELLO) hello(text);
                else if (state == State.STREAMING) metadata(text);
            }
            case PingWebSocketFrame ping -> {
                // A peer that pings and never reads would otherwise queue pongs without end.
                if (ctx.channel().isWritable())
                    ctx.writeAndFlush(new PongWebSocketFrame(ping.content()), ctx.voidPromise());
                else ping.release();
            }
            case CloseWebSocketFrame c -> {
                int code = c.statusCode();
                c.release();
                log.debug("input.harbor {}: browser DJ {} closed ({})", in.path(), peer, code);
                close(
                        code >= 1000 && code != 1005 && code != 1006 && code != 1015
                                ? code
                                : NORMAL,
                        "");
            }
            default -> frame.release(); // a pong, or a fragment the aggregator let through: nothing
                // to do
        }
    }

    private void hello(String text) {
        WebcastHello hello;
        try {
            hello = WebcastHello.parse(text);
        } catch (WebcastHello.Invalid e) {
            protocolError(e.getMessage());
            return;
        }
        helloTimer.cancel(false);
        String user = hello.user();
        String password = hello.password();
        if (password == null) {
            // Not a browser's way, but a program may send HTTP Basic credentials with the upgrade
            // request.
            BasicAuth.Credentials c =
                    head.header("authorization") == null
                            ? null
                            : BasicAuth.parse(head.header("authorization"));
            if (c != null) {
                user = c.user();
                password = c.password();
            }
        }
        if (password == null) {
            log.warn(
                    "input.harbor {}: refused browser DJ {}: its hello has no user and password",
                    in.path(),
                    peer);
            close(POLICY, "the hello must carry a user and password");
            return;
        }
        String u = user == null ? "source" : user;
        String pw = password;
        state = State.LOGIN;
        ctx.channel().config().setAutoRead(false);
        // Reads resume with the answer, before the held messages go in: the live pipe may pause
        // them again for room of its own.
        OffLoopCall.forConnection(
                ctx,
                server.callbacks(),
                SourceLogin.timeoutNanos(in),
                () -> in.login(u, pw),
                () -> state == State.CLOSED,
                r -> loggedIn(r, hello),
                null);
    }

    private void loggedIn(OffLoopCall.Result<Login> r, WebcastHello hello) {
        Login login = r.value();
        switch (SourceLogin.verdict(
                r,
                login != null && login.allowed(),
                server,
                address,
                in,
                log,
                "browser DJ " + peer,
                "bad user or password")) {
            case YES -> {}
            case NO -> {
                close(POLICY, "wrong user or password");
                return;
            }
            case TIMED_OUT -> {
                close(TRY_AGAIN_LATER, "the login check did not answer in time");
                return;
            }
            case FAILED -> {
                close(SERVER_ERROR, "the login check failed");
                return;
            }
        }
        session =
                in.connect(
                        head,
                        hello.mime(),
                        harbor,
                        peer,
                        login,
                        new HarborIngest.Answer() {
                            @Override
                            public void accept() {
                                state = State.STREAMING;
                            }

                            @Override
                            public void refuse(int status, String message) {
                                close(TRY_AGAIN_LATER, message);
                            }
                        });
        if (session == null) return;
        state = State.STREAMING;
        // A DJ that logged in may send messages up to MAX_MESSAGE: the decoder's limit from now on.
        if (ctx.pipeline().get(LIMIT) != null) ctx.pipeline().remove(LIMIT);
        while (!held.isEmpty() && state == State.STREAMING) handle(held.poll());
    }

    private void metadata(String text) {
        Map<String, String> m;
        try {
            m = WebcastHello.metadata(text);
        } catch (WebcastHello.Invalid e) {
            if (!badTextLogged) {
                badTextLogged = true;
                log.info(
                        "input.harbor {}: browser DJ {}: {}; ignored (logged once a connection)",
                        in.path(),
                        peer,
                        e.getMessage());
            }
            return;
        }
        if (m != null && !m.isEmpty()) session.tags(m);
    }

    private void protocolError(String why) {
        log.info(
                "input.harbor {}: browser DJ {} broke the webcast protocol: {}; closed",
                in.path(),
                peer,
                why);
        close(PROTOCOL_ERROR, why);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable e) {
        if (state == State.CLOSED) return;
        switch (e) {
            case CorruptedWebSocketFrameException c -> {
                // The decoder reads nothing more from this connection; its status says why (1002,
                // 1007 bad UTF-8, 1009 too long).
                log.warn(
                        "input.harbor {}: browser DJ {} sent a bad WebSocket frame ({}); closed",
                        in.path(),
                        peer,
                        c.getMessage());
                close(
                        c.closeStatus() == null ? PROTOCOL_ERROR : c.closeStatus().code(),
                        c.getMessage() == null ? "" : c.getMessage());
            }
            case TooLongFrameException t -> {
                log.warn(
                        "input.harbor {}: browser DJ {} sent a message over {} bytes; closed",
                        in.path(),
                        peer,
                        MAX_MESSAGE);
                close(TOO_BIG, "message over " + MAX_MESSAGE + " bytes");
            }
            default -> {
                // A peer that resets is routine on a public port: not worth an error line each.
                log.debug("input.harbor {}: browser DJ {}: {}", in.path(), peer, e.toString());
                state = State.CLOSED;
                ctx.close();
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        state = State.CLOSED;
        if (helloTimer != null) helloTimer.cancel(false);
        if (backstop != null) backstop.cancel(false);
        while (!held.isEmpty()) held.poll().release();
        if (session != null) session.disconnected();
        ctx.fireChannelInactive(); // the harbor's handler behind gives the connection's place back
    }

    /**
     * The live input ends the connection: with a close frame first, so that the page knows it was
     * closed on purpose.
     */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (state == State.CLOSED || !ctx.channel().isActive()) {
            ctx.close(promise);
            return;
        }
        state = State.CLOSED;
        closeWith(new CloseWebSocketFrame(NORMAL, "the station ended the stream"), promise);
    }

    /** Sends a close frame and closes the connection once it is written. */
    private void close(int code, String reason) {
        if (state == State.CLOSED) return;
        state = State.CLOSED;
        ctx.channel()
                .config()
                .setAutoRead(true); // a paused connection would not see the peer's end
        closeWith(new CloseWebSocketFrame(code, closeReason(reason)), ctx.newPromise());
    }

    /**
     * The close frame, then the close; at once when the socket takes no writes (the frame would
     * wait behind what the peer does not read), and in any case within {@value
     * #CLOSE_BACKSTOP_SECONDS} s.
     */
    private void closeWith(CloseWebSocketFrame frame, ChannelPromise promise) {
        if (!ctx.channel().isWritable()) {
            frame.release();
            ctx.close(promise);
            return;
        }
        ctx.writeAndFlush(frame).addListener(f -> ctx.close(promise));
        backstop =
                ctx.executor()
                        .schedule(
                                () -> {
                                    if (ctx.channel().isOpen()) {
                                        log.debug(
                                                "input.harbor {}: browser DJ {} did not take its close frame within {} s; closed",
                                                in.path(),
                                                peer,
                                                CLOSE_BACKSTOP_SECONDS);
                                        ctx.close();
                                    }
                                },
                                CLOSE_BACKSTOP_SECONDS,
                                TimeUnit.SECONDS);
    }

    /**
     * A close frame's reason holds 123 bytes of UTF-8 at most (RFC 6455 5.5): cut between code
     * points.
     */
    static String closeReason(String reason) {
        if (ByteBufUtil.utf8Bytes(reason) <= 123) return reason;
        int end = reason.length();
        String r;
        do {
            end = reason.offsetByCodePoints(end, -1);
            r = reason.substring(0, end) + "...";
        } while (ByteBufUtil.utf8Bytes(r) > 123);
        return r;
    }
}
