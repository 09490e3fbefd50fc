package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.groovecast.net.harbor.clients.ConnectionCount;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.RequestReader;
import org.groovecast.net.harbor.http.Responses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to a harbor's port + 1, where Shoutcast v1 source clients connect ({@code
 * input.harbor(..., icy: true)}): the client sends its password on a line, is answered {@code OK2}
 * and {@code icy-caps:11} (or {@code invalid password}, and let go), sends its {@code icy-name:},
 * {@code icy-genre:}, {@code content-type:}... lines and a blank one, then the raw stream, which
 * goes to the live input as an Icecast client's would. Lines may end in CR LF or LF alone (libshout
 * sends LF). A {@code GET /admin.cgi?pass=...&mode=updinfo&song=...} here sets the title, as on the
 * harbor port itself.
 *
 * <p>The harbor port's limits apply: its connection caps (counted with its own connections), its
 * head timeout for the password and header lines, and its failed-login limit per address. The
 * password is checked off the event loop (the script's {@code auth} function may block).
 */
final class IcySourceConnection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(IcySourceConnection.class);

    /**
     * The request version a live input is handed for an ICY client, which answers it nothing more.
     */
    static final String VERSION = "ICY";

    private static final byte[] OK =
            "OK2\r\nicy-caps:11\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] INVALID =
            "invalid password\r\n".getBytes(StandardCharsets.ISO_8859_1);

    /**
     * libshout's first connection: a probe of the server's kind, answered as a wrong password and
     * not counted as one.
     */
    private static final String POKE = "!POKE";

    private enum State {
        PASSWORD,
        OFF_LOOP,
        HEADERS,
        HTTP,
        INGEST,
        CLOSED
    }

    private final HarborServer server;
    private ChannelHandlerContext ctx;
    private InetAddress address;
    private String peer;
    private boolean counted;
    private State state = State.PASSWORD;
    private ByteBuf acc = Unpooled.EMPTY_BUFFER;
    private HarborIngest ingest;
    private Login login;
    private final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private HarborIngest.Session session;
    private ScheduledFuture<?> headTimer;

    /** Bytes of password and header lines so far: 16 KiB at most, as a harbor request head. */
    private int headBytes;

    IcySourceConnection(HarborServer server) {
        this.server = server;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        InetSocketAddress remote =
                ctx.channel().remoteAddress() instanceof InetSocketAddress i ? i : null;
        address = remote != null ? remote.getAddress() : InetAddress.getLoopbackAddress();
        peer =
                remote != null
                        ? address.getHostAddress() + ":" + remote.getPort()
                        : String.valueOf(ctx.channel().remoteAddress());
        HarborLimits limits = server.limits();
        if (server.connections().acquire(address, limits) != ConnectionCount.Admission.ADMITTED) {
            close(); // the count logs the refusal; the protocol has no way to say why
            return;
        }
        counted = true;
        long timeout = limits.headTimeoutNanos();
        headTimer =
                ctx.executor()
                        .schedule(
                                () -> {
                                    if (state == State.INGEST || state == State.CLOSED) return;
                                    log.info(
                                            "input.harbor: Shoutcast (icy) client {} on port {} did not send its password and headers within "
                                                    + "{} s (settings.harbor.headTimeout); closed",
                                            peer,
                                            server.icyPort(),
                                            Math.round(timeout / 1e9));
                                    close();
                                },
                                timeout,
                                TimeUnit.NANOSECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (state == State.INGEST) {
            session.feed(in); // ownership passes on, as for an Icecast client
            return;
        }
        try {
            if (state == State.CLOSED) return;
            if (acc == Unpooled.EMPTY_BUFFER)
                acc = ctx.alloc().buffer(Math.max(512, in.readableBytes()));
            else acc.discardSomeReadBytes();
            acc.writeBytes(in);
        } finally {
            in.release();
        }
        if (state == State.OFF_LOOP) {
            ctx.channel().config().setAutoRead(false); // kept until the password check answers
            return;
        }
        safely(this::process);
    }

    private void safely(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            // A bug must not leave the connection open, nor go unnoticed.
            log.warn("input.harbor: Shoutcast (icy) client {} failed: {}", peer, e.toString(), e);
            close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        state = State.CLOSED;
        if (headTimer != null) headTimer.cancel(false);
        if (counted) {
            counted = false;
            server.connections().release(address);
        }
        if (session != null) session.disconnected();
        if (acc != Unpooled.EMPTY_BUFFER) acc.release();
        acc = Unpooled.EMPTY_BUFFER;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable e) {
        log.debug("input.harbor: Shoutcast (icy) connection from {}: {}", peer, e.toString());
        ctx.close();
    }

    private void process() {
        while (state == State.PASSWORD || state == State.HEADERS || state == State.HTTP) {
            if (state == State.HTTP) {
                http();
                return;
            }
            int lf = acc.indexOf(acc.readerIndex(), acc.writerIndex(), (byte) '\n');
            if (lf < 0) {
                if (acc.readableBytes() > RequestReader.MAX_HEAD) {
                    log.info(
                            "input.harbor: Shoutcast (icy) client {} sent over 16 KiB without its headers; closed",
                            peer);
                    close();
                }
                return;
            }
            headBytes += lf + 1 - acc.readerIndex();
            if (headBytes > RequestReader.MAX_HEAD) {
                log.info(
                        "input.harbor: Shoutcast (icy) client {} sent over 16 KiB of header lines; closed",
                        peer);
                close();
                return;
            }
            String line = lineTo(lf);
            if (state == State.PASSWORD && isHttpRequestLine(line)) {
                // A title update (admin.cgi) sent here rather than to the harbor port: its head is
                // read whole.
                state = State.HTTP;
                continue;
            }
            acc.readerIndex(lf + 1);
            if (state == State.PASSWORD) password(line);
            else header(line);
        }
    }

    /** The line that ends at {@code lf}, without its CR LF or LF. */
    private String lineTo(int lf) {
        int from = acc.readerIndex();
        int end = lf > from && acc.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        return acc.toString(from, end - from, StandardCharsets.ISO_8859_1);
    }

    private void password(String line) {
        ingest = server.icyIngest();
        if (ingest == null) {
            log.info(
                    "input.harbor: Shoutcast (icy) client {} on port {}: no input takes icy sources here now; closed",
                    peer,
                    server.icyPort());
            answerAndClose(INVALID);
            return;
        }
        if (line.equals(POKE)) {
            log.debug(
                    "input.harbor {}: {} probed the server (libshout's !POKE); answered as a wrong password",
                    ingest.path(),
                    peer);
            answerAndClose(INVALID);
            return;
        }
        long retry = server.authFailures().retryAfter(address, server.limits());
        if (retry > 0) {
            log.info(
                    "input.harbor {}: Shoutcast (icy) client {} refused: too many failed logins, {} s to wait",
                    ingest.path(),
                    peer,
                    retry);
            answerAndClose(INVALID);
            return;
        }
        HarborIngest in = ingest;
        offLoop(
                SourceLogin.timeoutNanos(in),
                () -> in.icyLogin(line),
                r -> {
                    Login l = r.value();
                    if (SourceLogin.verdict(
                                    r,
                                    l != null && l.allowed(),
                                    server,
                                    address,
                                    in,
                                    log,
                                    "Shoutcast (icy) source client " + peer,
                                    "bad password")
                            == SourceLogin.Verdict.YES) {
                        login = l;
                        state = State.HEADERS;
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(OK), ctx.voidPromise());
                        return;
                    }
                    answerAndClose(INVALID);
                });
    }

    private static boolean isHttpRequestLine(String line) {
        int sp = line.indexOf(' ');
        return sp > 0
                && line.startsWith("/", sp + 1)
                && (line.endsWith(" HTTP/1.0") || line.endsWith(" HTTP/1.1"))
                && line.substring(0, sp).chars().allMatch(c -> c >= 'A' && c <= 'Z');
    }

    private void header(String line) {
        if (!line.isEmpty()) {
            int colon = line.indexOf(':');
            // Shoutcast clients write "icy-name:x" and "icy-name: x" alike; a line without a colon
            // says nothing.
            if (colon > 0)
                headers.merge(
                        line.substring(0, colon).strip(),
                        line.substring(colon + 1).strip(),
                        (a, b) -> b);
            return;
        }
        // Shoutcast v1 is MP3 unless the client says otherwise (libshout's ICY mode never does).
        headers.putIfAbsent("content-type", "audio/mpeg");
        RequestHead head =
                new RequestHead(
                        "SOURCE",
                        ingest.path(),
                        ingest.path(),
                        Map.of(),
                        VERSION,
                        java.util.Collections.unmodifiableMap(new TreeMap<>(headers)));
        if (headTimer != null) headTimer.cancel(false);
        state = State.INGEST;
        ByteBuf rest = acc; // not needed from now: the stream goes straight to the input
        acc = Unpooled.EMPTY_BUFFER;
        session = SourceLogin.handOver(ingest, head, ctx, peer, login, rest);
        if (session == null)
            state = State.CLOSED; // refused (mount busy, station stopped): answered and closing
    }

    /** An HTTP request on the ICY port: only the Shoutcast title update, {@code /admin.cgi}. */
    private void http() {
        int end = ByteBufUtil.indexOf(RequestReader.END, acc);
        if (end < 0) {
            if (acc.readableBytes() > RequestReader.MAX_HEAD) close();
            return;
        }
        RequestHead head;
        try {
            head = RequestHead.parse(acc, acc.readerIndex(), end);
        } catch (RequestHead.Malformed e) {
            reply("HTTP/1.0", 400, e.getMessage());
            return;
        }
        acc.readerIndex(end + 4);
        if (!head.path().equals(AdminCgi.PATH)
                || !(head.method().equals("GET") || head.method().equals("POST"))) {
            reply(
                    head.version(),
                    404,
                    "only /admin.cgi is served on the Shoutcast (icy) source port");
            return;
        }
        String version = head.version();
        AdminCgi.handle(
                server,
                head.query(),
                address,
                peer,
                new AdminCgi.Replies() {
                    @Override
                    public boolean refusedForFailures() {
                        if (server.authFailures().retryAfter(address, server.limits()) == 0)
                            return false;
                        IcySourceConnection.this.reply(
                                version, 429, "too many failed logins from your address");
                        return true;
                    }

                    @Override
                    public <T> void offLoop(
                            long timeoutNanos,
                            Supplier<T> work,
                            Consumer<OffLoopCall.Result<T>> then) {
                        IcySourceConnection.this.offLoop(timeoutNanos, work, then);
                    }

                    @Override
                    public void reply(int status, String text) {
                        IcySourceConnection.this.reply(version, status, text);
                    }
                });
    }

    /**
     * The password check (or a title update's) off the loop, reads paused meanwhile; then what came
     * with it.
     */
    private <T> void offLoop(
            long timeoutNanos, Supplier<T> work, Consumer<OffLoopCall.Result<T>> then) {
        State before = state;
        state = State.OFF_LOOP;
        OffLoopCall.forConnection(
                ctx,
                server.callbacks(),
                timeoutNanos,
                work,
                () -> state == State.CLOSED,
                r -> {
                    state = before;
                    safely(
                            () -> {
                                then.accept(r);
                                if (state == State.HEADERS)
                                    process(); // header lines that came with the password
                            });
                },
                null);
    }

    private void reply(String version, int status, String message) {
        state = State.CLOSED;
        ctx.writeAndFlush(Responses.text(ctx.alloc(), version, status, message, false, Map.of()))
                .addListener(ChannelFutureListener.CLOSE);
    }

    private void answerAndClose(byte[] answer) {
        state = State.CLOSED;
        ctx.writeAndFlush(Unpooled.wrappedBuffer(answer)).addListener(ChannelFutureListener.CLOSE);
    }

    private void close() {
        state = State.CLOSED;
        ctx.close();
    }
}
