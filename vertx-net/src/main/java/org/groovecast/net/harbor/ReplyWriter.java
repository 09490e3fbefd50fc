package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.net.harbor.files.StaticFile;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.MimeTypes;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.Responses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an {@link HttpReply} goes out on a harbor connection, by what its body is: in memory (one
 * buffer with its head, {@link Responses#reply}), a file (from the page cache to the socket by
 * sendfile, never whole into memory), or an {@link InputStream} ({@link StreamedBody}); kept alive
 * or closing as the request asked. It says what became of the connection ({@link After}), whose
 * state is the connection's to keep. One per connection, for the stream being written on it.
 */
final class ReplyWriter {
    /** The connection's lines under its own logger's name, which is what operators filter on. */
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    /** What the connection is once the reply is on its way. */
    enum After {
        /** Kept alive: the next request is read. */
        OPEN,
        /** Closing once the reply has gone out. */
        CLOSING,
        /** Busy with a streamed body, closed at its end: nothing more is read. */
        STREAMING
    }

    private final ChannelHandlerContext ctx;

    /** The body being streamed, if one is; only the loop sets it. */
    private StreamedBody streamed;

    ReplyWriter(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Sends {@code r} as the answer to {@code head}. */
    After reply(RequestHead head, HttpReply r) {
        boolean keepAlive = head.keepAlive();
        boolean bodyless = head.method().equals("HEAD");
        Object data = r.data();
        if (r.streamed()) {
            Map<String, String> headers = new LinkedHashMap<>();
            if (r.contentType() != null) headers.put("Content-Type", r.contentType());
            headers.putAll(r.headers());
            if (data instanceof Path p) return file(head, p, r.status(), headers);
            if (bodyless) {
                // HEAD of a streamed body (an event stream, say): its head alone, never the endless
                // rest.
                discard(r);
                ctx.writeAndFlush(
                                Responses.head(
                                        ctx.alloc(),
                                        head.version(),
                                        r.status(),
                                        headers,
                                        -1,
                                        false))
                        .addListener(ChannelFutureListener.CLOSE);
                return After.CLOSING;
            }
            var ch = ctx.channel();
            ch.writeAndFlush(
                    Responses.head(ctx.alloc(), head.version(), r.status(), headers, -1, false),
                    ch.voidPromise());
            streamed = StreamedBody.start(ch, (InputStream) data, HarborConnection.peerName(ch));
            return After.STREAMING;
        }
        ByteBuf out = Responses.reply(ctx.alloc(), head.version(), r, keepAlive, bodyless);
        if (keepAlive) {
            ctx.writeAndFlush(out, ctx.voidPromise());
            return After.OPEN;
        }
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
        return After.CLOSING;
    }

    /** A file of a {@code harbor.http.static} directory: 200, its type by its name. */
    After staticFile(RequestHead head, Path file) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", MimeTypes.of(file));
        return file(head, file, 200, headers);
    }

    /**
     * The same for a file as the directory last found it: a kept one goes as its head and its
     * bytes, shared by reference, in one flush; a larger one by sendfile.
     */
    After staticFile(RequestHead head, StaticFile file) {
        ByteBuf body = file.body();
        if (body == null) return staticFile(head, file.path());
        boolean keepAlive = head.keepAlive();
        ctx.write(
                Responses.head(
                        ctx.alloc(),
                        head.version(),
                        200,
                        file.type(),
                        Map.of(),
                        file.size(),
                        keepAlive,
                        0),
                ctx.voidPromise());
        ChannelFuture written =
                head.method().equals("HEAD") || file.size() == 0
                        ? ctx.writeAndFlush(Unpooled.EMPTY_BUFFER)
                        : ctx.writeAndFlush(file.bodyForReply());
        if (keepAlive) return After.OPEN;
        written.addListener(ChannelFutureListener.CLOSE);
        return After.CLOSING;
    }

    /** A file's reply: its head, then the file by sendfile; 404 if it cannot be read now. */
    private After file(RequestHead head, Path file, int status, Map<String, String> headers) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            return reply(head, HttpReply.text(404, "not found: " + head.path()));
        }
        boolean keepAlive = head.keepAlive();
        ctx.write(
                Responses.head(ctx.alloc(), head.version(), status, headers, size, keepAlive),
                ctx.voidPromise());
        ChannelFuture written =
                head.method().equals("HEAD") || size == 0
                        ? ctx.writeAndFlush(Unpooled.EMPTY_BUFFER)
                        : ctx.writeAndFlush(new DefaultFileRegion(file.toFile(), 0, size));
        if (keepAlive) return After.OPEN;
        written.addListener(ChannelFutureListener.CLOSE);
        return After.CLOSING;
    }

    /** The socket drained or closed: a streaming thread parked on it looks again. */
    void wake() {
        if (streamed != null) streamed.wake();
    }

    /**
     * A reply that will not be sent (its connection closed, or it came too late): a stream in it is
     * closed.
     */
    static void discard(HttpReply r) {
        if (r != null && r.data() instanceof InputStream in) {
            try {
                in.close();
            } catch (IOException e) {
                log.debug("harbor: closing an unsent reply's stream: {}", e.toString());
            }
        }
    }
}
