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
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.clients.TrustedProxies;
import org.groovecast.net.harbor.http.ClientAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The client a trusted proxy names replaces the peer on the request path: in the log, in the
 * per-address connection cap and in the failed-login limit; a forged header from anyone else is
 * ignored. The test's connections come from 127.0.0.1 (an EmbeddedChannel's peer).
 */
class ForwardedClientTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private HarborServer server;
    private HarborMount mount;
    private final List<EmbeddedChannel> open = new ArrayList<>();
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void setUp() {
        server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        mount =
                server.mount(
                        "/radio",
                        "audio/mpeg",
                        () -> new HarborMount("/radio", "audio/mpeg", 0, 64 * 1024, Map.of()));
        server.mount(
                        "/private",
                        "audio/mpeg",
                        () -> new HarborMount("/private", "audio/mpeg", 0, 64 * 1024, Map.of()))
                .auth((u, p) -> p.equals("right"));
        server.callbacks(Runnable::run);
        server.commit();
        logged.start();
        ((Logger) LoggerFactory.getLogger(HarborMount.class)).addAppender(logged);
    }

    @AfterEach
    void tearDown() {
        ((Logger) LoggerFactory.getLogger(HarborMount.class)).detachAppender(logged);
        open.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private String exchange(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HarborConnection(server));
        open.add(ch);
        ch.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1));
        ch.runPendingTasks();
        StringBuilder out = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            out.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return out.toString();
    }

    private String listen(String forwardedFor) {
        return exchange("GET /radio HTTP/1.0\r\nX-Forwarded-For: " + forwardedFor + "\r\n\r\n");
    }

    private String connectedLines() {
        return logged.list.stream()
                .map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains(" connected"))
                .collect(Collectors.joining("\n"));
    }

    private static InetAddress ip(String s) {
        return ClientAddress.address(s);
    }

    @Test
    void aTrustedProxysClientIsTheListenerAndCountsAsItsAddress() {
        server.trustedProxies(TrustedProxies.parse("127.0.0.1"));

        assertTrue(listen("6.6.6.6, 203.0.113.7").startsWith("HTTP/1.0 200 "));

        assertTrue(connectedLines().contains("listener 203.0.113.7 connected"), connectedLines());
        assertEquals(1, server.connections().from(ip("203.0.113.7")));
        assertEquals(0, server.connections().from(LOOPBACK), "the proxy holds no count of its own");
        assertEquals(0, server.connections().from(ip("6.6.6.6")));
        open.forEach(EmbeddedChannel::finishAndReleaseAll);
        assertEquals(0, server.connections().from(ip("203.0.113.7")), "released where counted");
        assertEquals(0, server.connections().total());
    }

    @Test
    void aForgedHeaderFromAnUntrustedPeerIsIgnored() {
        server.trustedProxies(TrustedProxies.parse("10.0.0.0/8"));

        listen("203.0.113.7");

        assertTrue(connectedLines().contains("listener embedded connected"), connectedLines());
        assertFalse(connectedLines().contains("203.0.113.7"), connectedLines());
        assertEquals(0, server.connections().from(ip("203.0.113.7")));
        assertEquals(1, server.connections().from(LOOPBACK));
    }

    @Test
    void thePerAddressCapAppliesToEachClientBehindTheProxy() {
        server.limits(
                new HarborLimits(
                        10_000_000_000L,
                        1_000_000_000L,
                        100,
                        1,
                        false,
                        5,
                        60_000_000_000L,
                        1_000_000_000L));
        server.trustedProxies(TrustedProxies.parse("127.0.0.0/8"));

        assertTrue(listen("203.0.113.7").startsWith("HTTP/1.0 200 "));
        assertTrue(listen("203.0.113.8").startsWith("HTTP/1.0 200 "), "another client: admitted");
        String again = listen("203.0.113.7");

        assertTrue(again.startsWith("HTTP/1.0 503 "), again);
        assertTrue(again.contains("Retry-After: 5"), again);
        assertEquals(2, mount.listeners());
        assertEquals(2, server.connections().total(), "the refused one is let go");
    }

    @Test
    void failedLoginsCountAgainstTheClientNotTheProxy() {
        server.limits(
                new HarborLimits(
                        10_000_000_000L,
                        1_000_000_000L,
                        100,
                        100,
                        false,
                        1,
                        60_000_000_000L,
                        1_000_000_000L));
        server.trustedProxies(TrustedProxies.parse("127.0.0.1"));
        String wrong =
                "Authorization: Basic "
                        + Base64.getEncoder().encodeToString("u:wrong".getBytes())
                        + "\r\n";

        String first =
                exchange(
                        "GET /private HTTP/1.0\r\nX-Forwarded-For: 203.0.113.7\r\n"
                                + wrong
                                + "\r\n");
        String second =
                exchange(
                        "GET /private HTTP/1.0\r\nX-Forwarded-For: 203.0.113.7\r\n"
                                + wrong
                                + "\r\n");
        String other =
                exchange(
                        "GET /private HTTP/1.0\r\nX-Forwarded-For: 203.0.113.8\r\n"
                                + wrong
                                + "\r\n");

        assertTrue(first.startsWith("HTTP/1.0 401 "), first);
        assertTrue(second.startsWith("HTTP/1.0 429 "), "the client is refused: " + second);
        assertTrue(
                other.startsWith("HTTP/1.0 401 "),
                "another client behind the same proxy is not: " + other);
    }

    @Test
    void aHeadOf100KilobytesIsRefusedWhoeverSendsIt() {
        server.trustedProxies(TrustedProxies.parse("127.0.0.1"));
        String huge = "10.0.0.1, ".repeat(10_000);

        String answer = listen(huge + "203.0.113.7");

        assertTrue(answer.startsWith("HTTP/1.1 431 "), answer);
        assertEquals(0, mount.listeners());
        assertEquals(0, server.connections().from(ip("203.0.113.7")));
    }
}
