package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.Route;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What players and web pages get from a mount besides the stream: HEAD, CORS and icy headers, the
 * generated .m3u and .pls, and the listener's agent in the log; on a connection fed by hand.
 */
class ListenerConveniencesTest {
    private final AtomicInteger connects = new AtomicInteger();
    private HarborServer server;
    private HarborMount mount;

    @BeforeEach
    void setUp() {
        server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        Map<String, String> icy = new LinkedHashMap<>();
        icy.put("icy-name", "Test FM");
        icy.put("icy-genre", "Tones");
        icy.put("icy-br", "128");
        icy.put("icy-pub", "1");
        mount =
                server.mount(
                        "/radio",
                        "audio/mpeg",
                        () -> new HarborMount("/radio", "audio/mpeg", 0, 64 * 1024, icy));
        mount.onConnect(h -> connects.incrementAndGet());
        server.mount(
                "/other",
                "audio/ogg",
                () -> new HarborMount("/other", "audio/ogg", 0, 64 * 1024, Map.of()));
        server.addRoute(
                new Route("GET", "/other.pls", req -> HttpReply.text(200, "the script's own")));
        server.callbacks(Runnable::run);
        server.commit();
    }

    /** A connection that sent {@code request}: what it was answered is in {@link #read}. */
    private EmbeddedChannel connect(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HarborConnection(server));
        ch.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1));
        ch.runPendingTasks();
        return ch;
    }

    private static String read(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            out.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return out.toString();
    }

    private String exchange(String request) {
        EmbeddedChannel ch = connect(request);
        String answer = read(ch);
        ch.finishAndReleaseAll();
        return answer;
    }

    private static List<String> headerLines(String answer) {
        return List.of(answer.substring(0, answer.indexOf("\r\n\r\n")).split("\r\n"));
    }

    private static String body(String answer) {
        return answer.substring(answer.indexOf("\r\n\r\n") + 4);
    }

    @Test
    void headAnswersWhatAListenerGetsWithoutBodyAndIsNoListener() throws Exception {
        EmbeddedChannel probe = connect("HEAD /radio HTTP/1.1\r\nHost: x\r\n\r\n");
        String head = read(probe);
        probe.runPendingTasks();

        assertTrue(head.startsWith("HTTP/1.0 200 OK\r\n"), head);
        assertEquals("", body(head), "a HEAD answer has no body");
        assertFalse(probe.isOpen(), "closed after the head");
        assertEquals(0, mount.listeners());

        EmbeddedChannel listener = connect("GET /radio HTTP/1.1\r\nHost: x\r\n\r\n");
        String get = read(listener);
        assertEquals(headerLines(get), headerLines(head), "HEAD and GET answer the same head");
        assertEquals(1, mount.listeners());
        long end = System.nanoTime() + 5_000_000_000L;
        while (connects.get() == 0 && System.nanoTime() < end) Thread.sleep(10);
        Thread.sleep(200); // time for a HEAD's callback too, had it been called
        assertEquals(1, connects.get(), "onConnect for the listener only");
        listener.finishAndReleaseAll();
        probe.finishAndReleaseAll();
    }

    @Test
    void everyMountAnswerCarriesCorsAndTheIcyHeaders() {
        List<String> lines =
                headerLines(exchange("GET /radio HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n"));

        for (String h :
                List.of(
                        "Content-Type: audio/mpeg",
                        "Cache-Control: no-cache, no-store",
                        "icy-name: Test FM",
                        "icy-genre: Tones",
                        "icy-br: 128",
                        "icy-pub: 1",
                        "icy-metaint: 16000",
                        "Access-Control-Allow-Origin: *")) {
            assertTrue(lines.contains(h), h + " in " + lines);
        }
        assertTrue(
                lines.stream()
                        .anyMatch(
                                l ->
                                        l.startsWith("Access-Control-Expose-Headers: ")
                                                && l.contains("icy-br")),
                lines.toString());
        List<String> probed =
                headerLines(exchange("HEAD /radio HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n"));
        assertEquals(lines, probed, "HEAD with Icy-MetaData says the metaint too");
    }

    @Test
    void aBrowsersPreflightForAMountIsAllowed() {
        List<String> lines =
                headerLines(
                        exchange(
                                "OPTIONS /radio HTTP/1.1\r\nOrigin: https://player.example\r\n"
                                        + "Access-Control-Request-Headers: icy-metadata\r\nConnection: close\r\n\r\n"));

        assertEquals("HTTP/1.1 204 No Content", lines.get(0));
        assertTrue(lines.contains("Access-Control-Allow-Origin: *"), lines.toString());
        assertTrue(lines.contains("Access-Control-Allow-Headers: Icy-MetaData"), lines.toString());
    }

    @Test
    void m3uAndPlsPointAtTheMountAsTheClientReachedIt() {
        String m3u =
                exchange(
                        "GET /radio.m3u HTTP/1.1\r\nHost: stream.example.org:8443\r\nConnection: close\r\n\r\n");
        String pls =
                exchange(
                        "GET /radio.pls HTTP/1.1\r\nHost: stream.example.org:8443\r\nConnection: close\r\n\r\n");

        assertTrue(m3u.startsWith("HTTP/1.1 200 OK\r\n"), m3u);
        assertTrue(headerLines(m3u).contains("Content-Type: audio/x-mpegurl"), m3u);
        assertTrue(headerLines(m3u).contains("Access-Control-Allow-Origin: *"), m3u);
        assertEquals(
                "#EXTM3U\n#EXTINF:-1,Test FM\nhttp://stream.example.org:8443/radio\n", body(m3u));
        assertTrue(headerLines(pls).contains("Content-Type: audio/x-scpls"), pls);
        assertTrue(headerLines(pls).contains("Access-Control-Allow-Origin: *"), pls);
        assertEquals(
                "[playlist]\nFile1=http://stream.example.org:8443/radio\nTitle1=Test FM\nLength1=-1\n"
                        + "NumberOfEntries=1\nVersion=2\n",
                body(pls));

        String head = exchange("HEAD /radio.m3u HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n") && body(head).isEmpty(), head);
        assertTrue(
                headerLines(head)
                        .contains(
                                "Content-Length: "
                                        + "#EXTM3U\n#EXTINF:-1,Test FM\nhttp://a/radio\n".length()),
                head);
    }

    @Test
    void aHostHeaderThatIsNoHostNeverReachesThePlaylist() {
        // A bare LF does not end a header line: it stays in the value, where it would start an
        // entry of its own.
        String m3u =
                exchange(
                        "GET /radio.m3u HTTP/1.1\r\nHost: a\nhttp://evil.example/x\r\nConnection: close\r\n\r\n");

        assertFalse(body(m3u).contains("evil"), m3u);
        assertEquals(3, body(m3u).lines().count(), m3u);
    }

    @Test
    void aScriptRouteOrAnUnknownMountIsNoGeneratedPlaylist() {
        assertTrue(
                exchange("GET /other.pls HTTP/1.1\r\nConnection: close\r\n\r\n")
                        .endsWith("the script's own"));
        assertTrue(
                exchange("GET /other.m3u HTTP/1.1\r\nConnection: close\r\n\r\n")
                        .contains("#EXTINF:-1,other\n"));
        assertTrue(
                exchange("GET /nowhere.m3u HTTP/1.1\r\nConnection: close\r\n\r\n")
                        .startsWith("HTTP/1.1 404 "));
        assertTrue(
                exchange("POST /radio.m3u HTTP/1.1\r\nConnection: close\r\n\r\n")
                        .startsWith("HTTP/1.1 404 "));
    }

    @Test
    void theConnectedLineNamesTheAgentQuotedSoThatItCannotForgeALine() {
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Logger log = (Logger) LoggerFactory.getLogger(HarborMount.class);
        log.addAppender(logged);
        try {
            exchange("GET /radio HTTP/1.0\r\nUser-Agent: mpv 0.35\r\n\r\n");
            exchange("GET /radio HTTP/1.0\r\n\r\n");
            exchange(
                    "GET /radio HTTP/1.0\r\nUser-Agent: x\"\n12:00:00.000 INFO  HarborMount - mount /radio: listener 6.6.6.6:1 left\r\n\r\n");
        } finally {
            log.detachAppender(logged);
        }
        List<String> connected =
                logged.list.stream()
                        .map(ILoggingEvent::getFormattedMessage)
                        .filter(m -> m.contains(" connected"))
                        .toList();

        assertEquals(3, connected.size(), connected.toString());
        assertTrue(
                connected
                        .get(0)
                        .matches(
                                "mount /radio: listener \\S+ connected, agent \"mpv 0\\.35\" \\(1 now\\)"),
                connected.get(0));
        assertTrue(connected.get(1).contains("connected, agent - ("), connected.get(1));
        assertFalse(connected.get(2).contains("\n"), connected.get(2));
        assertTrue(
                connected.get(2).contains("agent \"x\\\"\\x0a12:00:00.000 INFO"), connected.get(2));
    }
}
