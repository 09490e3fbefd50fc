package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.groovecast.net.harbor.files.SmallFileCache;
import org.groovecast.net.harbor.files.StaticFile;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.RequestHead;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The response writers on a channel of their own: what each kind of reply puts on the wire, and
 * what the connection is after it.
 */
class ReplyWriterTest {
    private final EmbeddedChannel ch = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    private final ReplyWriter writer = new ReplyWriter(ch.pipeline().firstContext());

    @TempDir Path dir;

    @AfterEach
    void tearDown() {
        ch.finishAndReleaseAll();
    }

    private static RequestHead head(String request) throws RequestHead.Malformed {
        ByteBuf b = Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1);
        try {
            return RequestHead.parse(b, 0, b.readableBytes());
        } finally {
            b.release();
        }
    }

    /** The next thing written, as text; a file region as {@code <file N bytes>}. */
    private String next() {
        Object o = ch.readOutbound();
        if (o instanceof FileRegion f) {
            f.release();
            return "<file " + f.count() + " bytes>";
        }
        ByteBuf b = (ByteBuf) o;
        try {
            return b.toString(StandardCharsets.ISO_8859_1);
        } finally {
            b.release();
        }
    }

    @Test
    void textGoesOutWithItsHeadInOneBufferAndTheConnectionStaysOpen() throws Exception {
        ReplyWriter.After a = writer.reply(head("GET /x HTTP/1.1"), HttpReply.text(200, "héllo"));

        assertEquals(ReplyWriter.After.OPEN, a);
        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 6\r\n\r\nh\u00c3\u00a9llo",
                next(),
                "the length in UTF-8 bytes");
        assertNull(ch.readOutbound());
        assertTrue(ch.isOpen());
    }

    @Test
    void bytesToAClientThatAskedToCloseAndTheConnectionCloses() throws Exception {
        ReplyWriter.After a =
                writer.reply(
                        head("GET /x HTTP/1.0"),
                        new HttpReply(201, null, Map.of("X-A", "b"), new byte[] {65, 66}));

        assertEquals(ReplyWriter.After.CLOSING, a);
        assertEquals(
                "HTTP/1.0 201 Created\r\nX-A: b\r\nContent-Length: 2\r\nConnection: close\r\n\r\nAB",
                next());
        assertFalse(ch.isOpen());
    }

    @Test
    void headOfATextReplySaysItsLengthWithoutTheBodyAnd204HasNeither() throws Exception {
        writer.reply(head("HEAD /x HTTP/1.1"), HttpReply.text(200, "hello"));
        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n\r\n",
                next());

        writer.reply(head("GET /x HTTP/1.1"), new HttpReply(204, null, Map.of(), "ignored"));
        assertEquals("HTTP/1.1 204 No Content\r\n\r\n", next());
    }

    @Test
    void aFileGoesAsItsHeadThenTheFileItselfByItsSize() throws Exception {
        Path f = Files.writeString(dir.resolve("page.html"), "<p>12345</p>");

        assertEquals(ReplyWriter.After.OPEN, writer.staticFile(head("GET /page.html HTTP/1.1"), f));
        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 12\r\n\r\n",
                next());
        assertEquals("<file 12 bytes>", next(), "sent from the file, never read into a buffer");

        assertEquals(
                ReplyWriter.After.CLOSING, writer.staticFile(head("HEAD /page.html HTTP/1.0"), f));
        assertEquals(
                "HTTP/1.0 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 12\r\nConnection: close\r\n\r\n",
                next());
        assertEquals("", next(), "no body for HEAD");
    }

    @Test
    void aKeptSmallFileGoesAsItsHeadAndItsBytesSharedWithTheCacheAndALargeOneBySendfile()
            throws Exception {
        Path small = Files.writeString(dir.resolve("page.html"), "<p>12345</p>");
        StaticFile kept =
                new SmallFileCache().refresh("page.html", small, false, System.nanoTime());

        assertEquals(
                ReplyWriter.After.OPEN, writer.staticFile(head("GET /page.html HTTP/1.1"), kept));
        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 12\r\n\r\n",
                next());
        assertEquals("<p>12345</p>", next(), "the kept bytes, not a file region");
        assertEquals(
                1, kept.body().refCnt(), "the reply released its share, the cache keeps its own");

        writer.staticFile(head("HEAD /page.html HTTP/1.1"), kept);
        next();
        assertEquals("", next(), "no body for HEAD");

        Path large = Files.write(dir.resolve("big.bin"), new byte[SmallFileCache.LARGEST + 1]);
        StaticFile notKept =
                new SmallFileCache().refresh("big.bin", large, false, System.nanoTime());
        writer.staticFile(head("GET /big.bin HTTP/1.1"), notKept);
        next();
        assertEquals("<file 65537 bytes>", next(), "a large file is never read into memory");
    }

    @Test
    void aReplysFileThatIsGoneIs404() throws Exception {
        HttpReply r = new HttpReply(200, "audio/mpeg", Map.of(), dir.resolve("gone.mp3"));

        assertEquals(ReplyWriter.After.OPEN, writer.reply(head("GET /song HTTP/1.1"), r));
        assertEquals(
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 16\r\n\r\n"
                        + "not found: /song",
                next());
    }

    @Test
    void headOfAStreamedReplyIsItsHeadAloneThenTheEndAndTheStreamIsClosed() throws Exception {
        AtomicBoolean closed = new AtomicBoolean();
        HttpReply r =
                new HttpReply(
                        200,
                        "text/event-stream",
                        Map.of(),
                        new ByteArrayInputStream(new byte[10]) {
                            @Override
                            public void close() {
                                closed.set(true);
                            }
                        });

        assertEquals(ReplyWriter.After.CLOSING, writer.reply(head("HEAD /events HTTP/1.1"), r));
        assertEquals(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n",
                next(),
                "no length: the body would end with the connection");
        assertTrue(closed.get());
        assertFalse(ch.isOpen());
    }

    @Test
    void anUnsentReplysStreamIsClosedAndAnythingElseLeftAlone() {
        AtomicBoolean closed = new AtomicBoolean();
        ReplyWriter.discard(
                new HttpReply(
                        200,
                        null,
                        Map.of(),
                        new ByteArrayInputStream(new byte[1]) {
                            @Override
                            public void close() {
                                closed.set(true);
                            }
                        }));
        ReplyWriter.discard(HttpReply.text(200, "x"));
        ReplyWriter.discard(null);

        assertTrue(closed.get());
    }
}
