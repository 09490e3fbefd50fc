package org.groovecast.net.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Icecast's URL listener auth against a real HTTP server in the test: what is posted ({@code
 * listener_add}'s fields, form-encoded), the answer read from {@code icecast-auth-user}, and a
 * server that is down or slow refusing.
 */
class ListenerUrlAuthTest {
    private HttpServer server;
    private final List<String> posted = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/listener_add",
                x -> {
                    String body =
                            new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    posted.add(x.getRequestMethod() + " " + body);
                    contentTypes.add(x.getRequestHeaders().getFirst("Content-Type"));
                    if (body.contains("pass=letmein"))
                        x.getResponseHeaders().add("icecast-auth-user", "1");
                    else x.getResponseHeaders().add("icecast-auth-message", "bad token");
                    x.sendResponseHeaders(200, -1);
                    x.close();
                });
        server.createContext(
                "/slow",
                x -> {
                    try {
                        Thread.sleep(3000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    x.getResponseHeaders().add("icecast-auth-user", "1");
                    x.sendResponseHeaders(200, -1);
                    x.close();
                });
        server.createContext(
                "/other-header",
                x -> {
                    x.getResponseHeaders().add("icecast-auth-user", "0");
                    x.sendResponseHeaders(200, -1);
                    x.close();
                });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private static Map<String, Object> client(String password) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("address", "192.0.2.7");
        c.put("agent", "My player/1.0");
        c.put("mount", "/radio");
        c.put("target", "/radio?token=a&b");
        c.put("user", "ann");
        c.put("password", password);
        c.put("id", 42L);
        c.put("port", 8000);
        c.put("server", "radio.example");
        return c;
    }

    @Test
    void postsIcecastsListenerAddFieldsAndAllowsOnItsHeader() {
        ListenerUrlAuth auth = new ListenerUrlAuth(url("/listener_add"), Duration.ofSeconds(5));
        assertEquals(true, auth.callOr("failed", client("letmein")));
        assertEquals(
                "POST action=listener_add&server=radio.example&port=8000&client=42"
                        + "&mount=%2Fradio%3Ftoken%3Da%26b&user=ann&pass=letmein&ip=192.0.2.7"
                        + "&agent=My+player%2F1.0",
                posted.getFirst());
        assertEquals("application/x-www-form-urlencoded", contentTypes.getFirst());
    }

    @Test
    void refusesWithoutTheHeaderOrWithAnotherValue() {
        assertEquals(
                false,
                new ListenerUrlAuth(url("/listener_add"), Duration.ofSeconds(5))
                        .callOr("failed", client("wrong")));
        assertEquals(
                false,
                new ListenerUrlAuth(url("/other-header"), Duration.ofSeconds(5))
                        .callOr("failed", client("letmein")));
        Map<String, Object> none = new LinkedHashMap<>();
        none.put("address", "192.0.2.7");
        new ListenerUrlAuth(url("/listener_add"), Duration.ofSeconds(5)).callOr("failed", none);
        assertEquals(
                "POST action=listener_add&server=&port=&client=&mount=&user=&pass=&ip=192.0.2.7&agent=",
                posted.getLast(),
                "what the client lacks is posted blank, as Icecast does");
    }

    @Test
    void aServerThatIsDownOrTooSlowRefusesAsAFailure() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Object failed = new Object();
        assertSame(
                failed,
                new ListenerUrlAuth(
                                URI.create("http://127.0.0.1:" + closed + "/listener_add"),
                                Duration.ofSeconds(2))
                        .callOr(failed, client("letmein")));
        long t0 = System.nanoTime();
        assertSame(
                failed,
                new ListenerUrlAuth(url("/slow"), Duration.ofMillis(500))
                        .callOr(failed, client("letmein")));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(true, ms < 2500, "given up after its timeout, not the server's 3 s: " + ms);
    }
}
