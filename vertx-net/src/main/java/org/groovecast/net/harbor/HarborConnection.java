package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultFileRegion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to a harbor port, read on its event loop: request heads are parsed here (so that
 * Icecast's {@code SOURCE} requests work), then the connection becomes a listener, a live source,
 * or a series of ordinary keep-alive requests answered by the script's routes. Bad input gets its
 * status (400, 404, 411, 413, 431) and ends this connection only.
 */
final class HarborConnection extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);
    static final int MAX_HEAD = 16 * 1024;
    private static final ByteBuf END = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(new byte[] {13, 10, 13, 10}));

    private enum State { HEAD, BODY, BUSY, LISTENER, INGEST, CLOSED }

    private final HarborServer server;
    private ChannelHandlerContext ctx;
    private String peer;

    /** The client's address, named on first use: most requests are never logged. */
    private String peer() {
        if (peer == null) {
            java.net.SocketAddress a = ctx.channel().remoteAddress();
            peer = a instanceof java.net.InetSocketAddress i ? i.getAddress().getHostAddress() + ":" + i.getPort() : String.valueOf(a);
        }
        return peer;
    }
    private ByteBuf acc = Unpooled.EMPTY_BUFFER;
    private State state = State.HEAD;
    private RequestHead head;
    private int bodyLength;
    private HarborIngest.Session ingest;

    HarborConnection(HarborServer server) {
        this.server = server;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        onClose();
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
            if (state == State.LISTENER || state == State.CLOSED) return;
            if (acc == Unpooled.EMPTY_BUFFER) acc = ctx.alloc().buffer(Math.max(512, in.readableBytes()));
            acc.writeBytes(in);
        } finally {
            in.release();
        }
        process();
    }

    /** Handles as many complete requests as the accumulated bytes hold. */
    private void process() {
        while (state == State.HEAD || state == State.BODY) {
            if (state == State.HEAD) {
                int end = ByteBufUtil.indexOf(END, acc);
                if (end < 0) {
                    if (acc.readableBytes() > MAX_HEAD) fail(431, "request head over 16 KiB");
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
                if (acc.readableBytes() < bodyLength) return;
                byte[] body = new byte[bodyLength];
                acc.readBytes(body);
                respondToRoute(body);
            }
        }
    }

    private void dispatch() {
        String method = head.method();
        if (method.equals("SOURCE") || method.equals("PUT")) {
            HarborIngest in = server.ingest(head.path());
            if (in == null) {
                fail(404, "no live input on " + head.path());
                return;
            }
            state = State.INGEST;
            ingest = in.connect(head, ctx, peer());
            if (ingest == null) {
                state = State.CLOSED; // refused; the answer is on its way and the connection closing
                return;
            }
            if (acc.isReadable()) ingest.feed(acc.readRetainedSlice(acc.readableBytes()));
            return;
        }
        if ((method.equals("GET") || method.equals("HEAD")) && head.path().equals("/admin/metadata")) {
            adminMetadata();
            return;
        }
        HarborMount mount = method.equals("GET") ? server.mount(head.path()) : null;
        if (mount != null && !mount.admits(head)) {
            log.info("harbor: listener {} refused on {} (bad user or password)", peer(), head.path());
            state = State.CLOSED;
            ctx.writeAndFlush(Responses.text(ctx.alloc(), head.version(), 401, "this stream needs a user and password",
                    false, Map.of("WWW-Authenticate", "Basic realm=\"" + head.path() + "\"")))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        if (mount != null) {
            state = State.LISTENER;
            acc.clear();
            mount.attach(ctx, head, peer());
            ctx.flush();
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

    private void adminMetadata() {
        String mountName = head.query().getOrDefault("mount", "");
        HarborIngest in = server.ingest(mountName.startsWith("/") ? mountName : "/" + mountName);
        state = State.HEAD;
        if (in == null) {
            reply(HttpReply.text(404, "no live input on " + mountName));
            return;
        }
        int status = in.adminMetadata(head);
        reply(HttpReply.text(status, status == 200 ? "metadata updated" : Responses.reason(status)));
    }

    private void respondToRoute(byte[] body) {
        state = State.HEAD;
        HarborServer.Match m = server.route(head.method().equals("HEAD") ? "GET" : head.method(), head.path());
        if (m == null) {
            Path file = server.staticFile(head.path());
            if (file != null) {
                sendFile(file);
                return;
            }
            reply(HttpReply.text(404, "not found: " + head.path()));
            return;
        }
        HttpRequest req = new HttpRequest(head.method(), head.path(), head.query(), head.headers(), m.params(), body);
        HttpReply r;
        try {
            r = m.route().handler().apply(req);
        } catch (RuntimeException e) {
            server.handlerFailed(m.route(), e);
            reply(HttpReply.text(500, "internal error"));
            return;
        }
        reply(r == null ? new HttpReply(204, null, Map.of(), null) : r);
    }

    private void reply(HttpReply r) {
        boolean keepAlive = head.keepAlive();
        boolean bodyless = head.method().equals("HEAD");
        Object data = r.data();
        if (data instanceof Path || data instanceof InputStream) {
            Map<String, String> headers = new LinkedHashMap<>();
            if (r.contentType() != null) headers.put("Content-Type", r.contentType());
            headers.putAll(r.headers());
            if (data instanceof Path p) sendFile(p, r.status(), headers);
            else stream((InputStream) data, r.status(), headers);
            return;
        }
        // Text goes straight into the response buffer as UTF-8: no intermediate byte array per request.
        CharSequence text = data == null ? "" : data instanceof byte[] ? null : data instanceof CharSequence c ? c : data.toString();
        int length = text != null ? ByteBufUtil.utf8Bytes(text) : ((byte[]) data).length;
        ByteBuf out = Responses.head(ctx.alloc(), head.version(), r.status(), r.contentType(), r.headers(), length,
                keepAlive, bodyless ? 0 : length);
        if (!bodyless) {
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
     * Streams a body of unknown length on a virtual thread, in direct style: read, write, wait for
     * the socket to drain when its queue is full. The connection takes no new request meanwhile.
     */
    private void stream(InputStream in, int status, Map<String, String> headers) {
        state = State.BUSY;
        ctx.writeAndFlush(Responses.head(ctx.alloc(), head.version(), status, headers, -1, false), ctx.voidPromise());
        Thread.startVirtualThread(() -> {
            byte[] buf = new byte[16 * 1024];
            try (in) {
                int n;
                while ((n = in.read(buf)) > 0 && ctx.channel().isActive()) {
                    ByteBuf out = ctx.alloc().buffer(n).writeBytes(buf, 0, n);
                    if (!ctx.writeAndFlush(out).await().isSuccess()) break;
                    while (!ctx.channel().isWritable() && ctx.channel().isActive()) Thread.sleep(5);
                }
            } catch (Exception e) {
                log.debug("harbor: streaming a response to {} ended: {}", peer(), e.toString());
            } finally {
                ctx.channel().eventLoop().execute(() -> {
                    state = State.CLOSED;
                    ctx.close();
                });
            }
        });
    }

    private void fail(int status, String message) {
        if (status >= 400 && status != 404) log.info("harbor: {} from {}: {}", status, peer(), message);
        state = State.CLOSED;
        ctx.writeAndFlush(Responses.text(ctx.alloc(), "HTTP/1.1", status, message, false, Map.of()))
                .addListener(ChannelFutureListener.CLOSE);
        acc.clear();
    }

    private void onClose() {
        state = State.CLOSED;
        if (ingest != null) ingest.disconnected();
        if (acc != Unpooled.EMPTY_BUFFER) acc.release();
        acc = Unpooled.EMPTY_BUFFER;
    }
}
