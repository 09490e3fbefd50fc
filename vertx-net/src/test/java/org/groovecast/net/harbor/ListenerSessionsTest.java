package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.sessions.AccessLog;
import org.groovecast.net.harbor.sessions.ListenerSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A session per listener: who, where, since when and the bytes written to it (counted as written,
 * ICY blocks and the head included), handed to onConnect and onDisconnect, and one access log line
 * when it ends; HLS clients of a static folder as sessions that end when they stop asking.
 */
class ListenerSessionsTest {
    @TempDir Path dir;
    private HarborServer server;
    private HarborMount mount;
    private final BlockingQueue<ListenerSession> connected = new LinkedBlockingQueue<>();
    private final BlockingQueue<ListenerSession> left = new LinkedBlockingQueue<>();
    private final List<EmbeddedChannel> open = new ArrayList<>();
    private final ListAppender<ILoggingEvent> access = new ListAppender<>();
    private final Logger accessLogger = (Logger) LoggerFactory.getLogger(AccessLog.LOGGER);

    @BeforeEach
    void setUp() throws Exception {
        server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        mount =
                server.mount(
                        "/radio",
                        "audio/mpeg",
                        () -> new HarborMount("/radio", "audio/mpeg", 0, 1 << 20, Map.of()));
        mount.onConnect(connected::add);
        mount.onDisconnect(left::add);
        Path hls = Files.createDirectories(dir.resolve("hls"));
        Files.writeString(
                hls.resolve("stream.m3u8"),
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nseg1.ts\n");
        Files.write(hls.resolve("seg1.ts"), new byte[1880]);
        Files.write(dir.resolve("file.mp3"), new byte[100]);
        server.addStatic("/hls", hls);
        server.addStatic("/files", dir);
        server.callbacks(Runnable::run);
        server.commit();
        server.accessLog(AccessLog.of(true, false));
        access.start();
        accessLogger.addAppender(access);
    }

    @AfterEach
    void tearDown() {
        accessLogger.detachAppender(access);
        open.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private EmbeddedChannel connect(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HarborConnection(server));
        open.add(ch);
        ch.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1));
        ch.runPendingTasks();
        return ch;
    }

    /** Bytes the channel was given to write, released. */
    private static long drain(EmbeddedChannel ch) {
        long n = 0;
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            n += b.readableBytes();
            b.release();
        }
        return n;
    }

    private static RequestHead head(String text) throws RequestHead.Malformed {
        return RequestHead.parse(
                Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1), 0, text.length());
    }

    private void publish(int chunks, int size, EmbeddedChannel... listeners) {
        for (int i = 0; i < chunks; i++) {
            mount.publish(Unpooled.directBuffer(size).writeZero(size));
            for (EmbeddedChannel l : listeners) l.runPendingTasks();
        }
    }

    @Test
    void aListenersSessionSaysWhoAndCountsWhatWasWrittenToIt() throws Exception {
        EmbeddedChannel plain =
                connect(
                        "GET /radio?token=x HTTP/1.1\r\nUser-Agent: mpv 0.35\r\nReferer: https://example.org/player\r\n\r\n");
        EmbeddedChannel icy = connect("GET /radio HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n");
        mount.metadata("Band - Song");
        long written = drain(plain);
        long writtenIcy = drain(icy);
        publish(40, 1000, plain, icy); // 40,000 bytes: two ICY blocks for the ICY listener
        written += drain(plain);
        writtenIcy += drain(icy);

        ListenerSession first = connected.poll(5, TimeUnit.SECONDS);
        ListenerSession second = connected.poll(5, TimeUnit.SECONDS);
        // onConnect runs on threads of its own: in either order
        ListenerSession s = first.agent() != null ? first : second;
        ListenerSession t = s == first ? second : first;
        assertEquals("/radio", s.mount());
        assertEquals("mpv 0.35", s.agent());
        assertEquals("https://example.org/player", s.referer());
        assertEquals(InetAddress.getLoopbackAddress(), s.address());
        assertNotEquals(s.id(), t.id());
        assertEquals(written, s.bytes(), "the head and every chunk, as written");
        assertEquals(writtenIcy, t.bytes(), "ICY blocks included");
        assertTrue(writtenIcy > written + 2 * 16, writtenIcy + " vs " + written);
        Map<String, Object> view = s.view();
        assertEquals("127.0.0.1", view.get("address"));
        assertEquals("/radio?token=x", view.get("uri"));
        assertEquals("mpv 0.35", ((Map<?, ?>) view.get("headers")).get("user-agent"));
        assertEquals(
                "mpv 0.35", view.get("user-agent"), "as onConnect's headers were before sessions");
        assertEquals("/radio", view.get("mount"), "a session's own key is never a header's");

        plain.close();
        plain.runPendingTasks();
        ListenerSession gone = left.poll(5, TimeUnit.SECONDS);
        assertEquals(s.id(), gone.id());
        assertEquals(written, gone.view().get("bytes"));
        assertNull(server.sessions().get(s.id()), "an ended session is no longer listed");
        assertEquals(List.of(t), server.sessions().on("/radio"));
        assertEquals(1, access.list.size());
        assertTrue(
                access.list
                        .getFirst()
                        .getFormattedMessage()
                        .matches(
                                "127\\.0\\.0\\.1 - - \\[[^]]+] \"GET /radio HTTP/1\\.1\" 200 "
                                        + written
                                        + " \"https://example\\.org/player\" \"mpv 0\\.35\" [01]"),
                access.list.getFirst().getFormattedMessage());
    }

    @Test
    void theLineIsIcecastsCombinedFormatWithTheSecondsLast() throws Exception {
        RequestHead head =
                head("GET /radio?token=secret HTTP/1.0\r\nUser-Agent: say \"hi\" \\ \u00e9\r\n");
        ListenerSession s =
                new ListenerSession(InetAddress.getByName("192.0.2.7"), head, "/radio", "dj", null);
        s.wrote(1234);
        s.end(false);
        String line =
                AccessLog.of(true, false)
                        .line(s, Instant.parse("2026-12-05T08:40:01Z"), ZoneOffset.ofHours(1));
        assertEquals(
                "192.0.2.7 - dj [05/Dec/2026:09:40:01 +0100] \"GET /radio HTTP/1.0\" 200 1234 \"-\" \"say .hi. . .\" "
                        + s.seconds(),
                line);
        String hashed =
                AccessLog.of(true, true)
                        .line(s, Instant.parse("2026-12-05T08:40:01Z"), ZoneOffset.UTC);
        String token = hashed.substring(0, hashed.indexOf(' '));
        assertTrue(token.matches("[0-9a-f]{16}"), token);
        assertEquals(token, AccessLog.hash(InetAddress.getByName("192.0.2.7")), "stable in a run");
        assertNotEquals(token, AccessLog.hash(InetAddress.getByName("192.0.2.8")));
        assertFalse(hashed.contains("192.0.2.7"));
    }

    @Test
    void anHlsClientIsOneSessionUntilItStopsAsking() throws Exception {
        connect("GET /files/file.mp3 HTTP/1.1\r\nUser-Agent: hls.js\r\n\r\n");
        assertEquals(0, server.sessions().size(), "a file without a playlist begins nothing");
        connect("GET /hls/seg1.ts HTTP/1.1\r\nUser-Agent: hls.js\r\n\r\n");
        assertEquals(0, server.sessions().size(), "nor does a segment alone");

        EmbeddedChannel ch = connect("GET /hls/stream.m3u8 HTTP/1.1\r\nUser-Agent: hls.js\r\n\r\n");
        ch.writeInbound(
                Unpooled.copiedBuffer(
                        "GET /hls/seg1.ts HTTP/1.1\r\nUser-Agent: hls.js\r\n\r\n",
                        StandardCharsets.ISO_8859_1));
        connect("GET /hls/seg1.ts HTTP/1.1\r\nUser-Agent: hls.js\r\n\r\n"); // another connection
        connect("GET /hls/stream.m3u8 HTTP/1.1\r\nUser-Agent: AppleCoreMedia\r\n\r\n");

        List<ListenerSession> on = server.sessions().on("/hls");
        assertEquals(2, on.size(), "one per agent");
        ListenerSession s = on.getFirst();
        long playlist = Files.size(dir.resolve("hls/stream.m3u8"));
        assertEquals(playlist + 2 * 1880, s.bytes());
        assertEquals("hls.js", s.agent());

        server.sessions().sweep(System.nanoTime() + 1_500_000_000L);
        assertEquals(2, server.sessions().on("/hls").size(), "within two target durations");
        server.sessions().sweep(System.nanoTime() + 2_500_000_000L);
        assertEquals(0, server.sessions().on("/hls").size(), "past two target durations");
        assertEquals(2, access.list.size());
        assertTrue(
                access.list.stream()
                        .anyMatch(
                                e ->
                                        e.getFormattedMessage()
                                                .contains(
                                                        "\"GET /hls/stream.m3u8 HTTP/1.1\" 200 "
                                                                + (playlist + 2 * 1880)
                                                                + " \"-\" \"hls.js\"")),
                access.list.toString());
    }

    @Test
    void countingABytesWrittenAllocatesNothing() throws Exception {
        RequestHead head = head("GET /r HTTP/1.0\r\n");
        ListenerSession s =
                new ListenerSession(InetAddress.getLoopbackAddress(), head, "/r", null, null);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 200_000; i++) s.wrote(i & 1023); // compiled first
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1_000_000; i++) s.wrote(i & 1023);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1024, allocated + " bytes for a million chunks");
    }
}
