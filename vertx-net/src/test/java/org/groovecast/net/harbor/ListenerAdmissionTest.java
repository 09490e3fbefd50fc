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
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.groovecast.api.UserFunction;
import org.groovecast.net.admission.DenyList;
import org.groovecast.net.admission.MountAdmission;
import org.groovecast.net.harbor.clients.TrustedProxies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A mount's admission rules on connections fed by hand (the client is 127.0.0.1, as an embedded
 * channel's address reads): deny lists, the cap, the time limit and the admit function's answers,
 * and the same rules on a served HLS directory.
 */
class ListenerAdmissionTest {
    @TempDir Path dir;
    private HarborServer server;
    private HarborMount mount;
    private final AtomicReference<Object> seen = new AtomicReference<>();

    @BeforeEach
    void setUp() throws Exception {
        server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        mount =
                server.mount(
                        "/radio",
                        "audio/mpeg",
                        () -> new HarborMount("/radio", "audio/mpeg", 0, 64 * 1024, Map.of()));
        Files.writeString(dir.resolve("stream.m3u8"), "#EXTM3U\n");
        server.callbacks(Runnable::run);
    }

    @AfterEach
    void tearDown() {
        mount.close();
    }

    private void rules(MountAdmission rules) {
        mount.admission(rules);
        server.commit();
    }

    private static MountAdmission deny(Map<String, ?> list) {
        return new MountAdmission(0, 0, DenyList.of(list), null);
    }

    private static MountAdmission admit(UserFunction f) {
        return new MountAdmission(0, 0, DenyList.NONE, f);
    }

    private EmbeddedChannel connect(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HarborConnection(server));
        ch.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1));
        ch.runPendingTasks();
        return ch;
    }

    private static String read(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            if (o instanceof ByteBuf b) out.append(b.toString(StandardCharsets.ISO_8859_1));
            ReferenceCountUtil.release(o);
        }
        return out.toString();
    }

    private String status(String request) {
        EmbeddedChannel ch = connect(request);
        String answer = read(ch);
        ch.finishAndReleaseAll();
        return answer.isEmpty() ? "" : answer.substring(0, answer.indexOf("\r\n"));
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    /** Every warning or error logged from now on, whatever the logger. */
    private static ListAppender<ILoggingEvent> warnings() {
        ListAppender<ILoggingEvent> logged =
                new ListAppender<>() {
                    @Override
                    protected void append(ILoggingEvent e) {
                        if (e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.WARN))
                            super.append(e);
                    }
                };
        logged.start();
        root().addAppender(logged);
        return logged;
    }

    private static final String LISTEN = "GET /radio HTTP/1.0\r\nUser-Agent: VLC/3.0\r\n\r\n";

    @Test
    void aDeniedAddressOrAgentGets403AndIsNoListener() {
        rules(deny(Map.of("addresses", List.of("198.51.100.0/24"))));
        EmbeddedChannel in = connect(LISTEN);
        assertTrue(read(in).startsWith("HTTP/1.0 200 OK"), "another address is let in");
        assertEquals(1, mount.listeners());
        in.finishAndReleaseAll();

        rules(deny(Map.of("addresses", List.of("198.51.100.0/24", "127.0.0.0/8"))));
        assertEquals("HTTP/1.0 403 Forbidden", status(LISTEN));
        assertEquals("HTTP/1.0 403 Forbidden", status("HEAD /radio HTTP/1.0\r\n\r\n"));

        rules(deny(Map.of("agents", List.of("*bot*", "/^curl\\//"))));
        assertEquals(
                "HTTP/1.0 403 Forbidden",
                status("GET /radio HTTP/1.0\r\nUser-Agent: curl/8.5\r\n\r\n"));
        assertEquals(
                "HTTP/1.0 403 Forbidden",
                status("GET /radio HTTP/1.0\r\nUser-Agent: Googlebot\r\n\r\n"));
        assertEquals(0, mount.listeners());
    }

    @Test
    void behindATrustedProxyTheClientItNamesIsDeniedOrLetIn() {
        server.trustedProxies(TrustedProxies.parse("127.0.0.1"));
        rules(deny(Map.of("addresses", List.of("198.51.100.0/24"))));
        String from = "GET /radio HTTP/1.0\r\nX-Forwarded-For: %s\r\n\r\n";
        assertEquals("HTTP/1.0 403 Forbidden", status(from.formatted("198.51.100.9")));
        EmbeddedChannel in = connect(from.formatted("192.0.2.1"));
        assertTrue(read(in).startsWith("HTTP/1.0 200 OK"), "another client of the same proxy");
        in.finishAndReleaseAll();
        rules(admit(args -> "192.0.2.1".equals(((Map<?, ?>) args[0]).get("address"))));
        EmbeddedChannel admitted = connect(from.formatted("192.0.2.1"));
        assertTrue(read(admitted).startsWith("HTTP/1.0 200 OK"), "the admit function sees it too");
        admitted.finishAndReleaseAll();
    }

    @Test
    void theListenerPastTheCapGets503WithRetryAfterAndAHeadStillAnswers() {
        rules(new MountAdmission(2, 0, DenyList.NONE, null));
        EmbeddedChannel a = connect(LISTEN);
        EmbeddedChannel b = connect(LISTEN);
        assertEquals(2, mount.listeners());
        EmbeddedChannel c = connect(LISTEN);
        String refused = read(c);
        assertTrue(refused.startsWith("HTTP/1.0 503 Service Unavailable\r\n"), refused);
        assertTrue(refused.contains("\r\nRetry-After: 30\r\n"), refused);
        assertEquals(2, mount.listeners());
        assertEquals(
                "HTTP/1.0 200 OK",
                status("HEAD /radio HTTP/1.0\r\n\r\n"),
                "a probe takes no place");
        a.finishAndReleaseAll(); // its close handler runs on its loop, which finishing runs
        assertEquals(1, mount.listeners());
        EmbeddedChannel d = connect(LISTEN);
        assertTrue(read(d).startsWith("HTTP/1.0 200 OK"), "a place freed is taken");
        b.finishAndReleaseAll();
        c.finishAndReleaseAll();
        d.finishAndReleaseAll();
    }

    @Test
    void aListenerIsClosedAtItsTimeLimit() {
        rules(new MountAdmission(0, TimeUnit.SECONDS.toNanos(60), DenyList.NONE, null));
        EmbeddedChannel ch = connect(LISTEN);
        assertTrue(read(ch).startsWith("HTTP/1.0 200 OK"));
        ch.advanceTimeBy(59, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertTrue(ch.isOpen(), "still within its minute");
        ch.advanceTimeBy(2, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertFalse(ch.isOpen(), "closed past its minute");
        ch.finishAndReleaseAll();
    }

    @Test
    void theAdmitFunctionSeesTheClientAndAllowsDeniesOrRedirects() {
        rules(
                admit(
                        args -> {
                            seen.set(args[0]);
                            return true;
                        }));
        EmbeddedChannel ch =
                connect(
                        "GET /radio?token=abc HTTP/1.0\r\nUser-Agent: VLC/3.0\r\nX-Custom: 1\r\n\r\n");
        assertTrue(read(ch).startsWith("HTTP/1.0 200 OK"));
        ch.finishAndReleaseAll();
        Map<?, ?> client = (Map<?, ?>) seen.get();
        assertEquals("127.0.0.1", client.get("address"));
        assertEquals("VLC/3.0", client.get("agent"));
        assertEquals(Map.of("token", "abc"), client.get("query"));
        assertEquals("1", ((Map<?, ?>) client.get("headers")).get("x-custom"));
        assertEquals("/radio", client.get("mount"));

        rules(admit(args -> false));
        assertEquals("HTTP/1.0 403 Forbidden", status(LISTEN));
        rules(admit(args -> Map.of("redirect", "https://example.org/subscribe")));
        EmbeddedChannel r = connect(LISTEN);
        String redirect = read(r);
        r.finishAndReleaseAll();
        assertTrue(redirect.startsWith("HTTP/1.0 302 Found\r\n"), redirect);
        assertTrue(redirect.contains("\r\nLocation: https://example.org/subscribe\r\n"), redirect);
        assertEquals(0, mount.listeners());
    }

    @Test
    void anAdmitFunctionThatThrowsRefusesWithOneLogLine() {
        ListAppender<ILoggingEvent> logged = warnings();
        try {
            rules(
                    admit(
                            args -> {
                                throw new IllegalStateException("no database");
                            }));
            assertEquals("HTTP/1.0 503 Service Unavailable", status(LISTEN));
        } finally {
            root().detachAppender(logged);
        }
        assertEquals(1, logged.list.size(), logged.list.toString());
        assertTrue(logged.list.getFirst().getFormattedMessage().contains("no database"));
        assertEquals(0, mount.listeners());
    }

    @Test
    void anAdmitFunctionThatHangsRefusesAtTheAuthDeadline() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.callbacks(OffLoopCall.VIRTUAL_THREADS);
        rules(
                admit(
                        args -> {
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return true;
                        }));
        ListAppender<ILoggingEvent> logged = warnings();
        EmbeddedChannel ch = connect(LISTEN);
        try {
            assertEquals("", read(ch), "nothing answered while the function runs");
            ch.advanceTimeBy(ListenerLogin.AUTH_NANOS + 1, TimeUnit.NANOSECONDS);
            ch.runScheduledPendingTasks();
            String answer = read(ch);
            assertTrue(answer.startsWith("HTTP/1.0 503 Service Unavailable"), answer);
            release.countDown();
            Thread.sleep(100);
            ch.runPendingTasks(); // the late answer is dropped
            assertEquals(0, mount.listeners());
        } finally {
            root().detachAppender(logged);
            ch.finishAndReleaseAll();
        }
        List<String> lines = logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.getFirst().contains("did not answer within 10 s"), lines.getFirst());
    }

    @Test
    void aServedHlsDirectoryRefusesBannedClientsOnEveryRequest() {
        server.addStatic("/hls", dir, deny(Map.of("addresses", List.of("127.0.0.1"))));
        server.addStatic("/open", dir);
        server.commit();
        assertEquals(
                "HTTP/1.1 403 Forbidden",
                status("GET /hls/stream.m3u8 HTTP/1.1\r\nConnection: close\r\n\r\n"));
        assertEquals(
                "HTTP/1.1 403 Forbidden",
                status("GET /hls/missing.ts HTTP/1.1\r\nConnection: close\r\n\r\n"),
                "refused before saying whether the file is there");
        assertEquals(
                "HTTP/1.1 200 OK",
                status("GET /open/stream.m3u8 HTTP/1.1\r\nConnection: close\r\n\r\n"));
    }

    @Test
    void aServedHlsDirectoryAsksItsAdmitFunctionOncePerClientAndCapsClients() {
        int[] asked = new int[1];
        server.addStatic(
                "/hls",
                dir,
                new MountAdmission(
                        1,
                        0,
                        DenyList.NONE,
                        args -> {
                            asked[0]++;
                            return "abc"
                                    .equals(
                                            ((Map<?, ?>) ((Map<?, ?>) args[0]).get("query"))
                                                    .get("token"));
                        }));
        server.commit();
        assertEquals(
                "HTTP/1.1 403 Forbidden",
                status(
                        "GET /hls/stream.m3u8 HTTP/1.1\r\nUser-Agent: A\r\nConnection: close\r\n\r\n"));
        assertEquals(
                "HTTP/1.1 200 OK",
                status(
                        "GET /hls/stream.m3u8?token=abc HTTP/1.1\r\nUser-Agent: A\r\nConnection: close\r\n\r\n"));
        assertEquals(
                "HTTP/1.1 200 OK",
                status(
                        "GET /hls/stream.m3u8 HTTP/1.1\r\nUser-Agent: A\r\nConnection: close\r\n\r\n"),
                "the admitted client's next requests need no token");
        assertEquals(2, asked[0]);
        String full =
                status(
                        "GET /hls/stream.m3u8?token=abc HTTP/1.1\r\nUser-Agent: B\r\nConnection: close\r\n\r\n");
        assertEquals("HTTP/1.1 503 Service Unavailable", full, "another client past the cap of 1");
    }
}
