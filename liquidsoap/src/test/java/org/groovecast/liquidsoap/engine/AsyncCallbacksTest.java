package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Callbacks registered with {@code synchronous=false} run off the clock and off the network's event
 * loop, so that they may call an HTTP API as AzuraCast's runtime does (feedback on each track,
 * djon/djoff when a DJ comes and goes): a small HTTP server of ours receives the calls.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncCallbacksTest {
    private static final OperatorPlugins PLUGINS =
            OperatorPlugins.load(ShippedStation.pluginsDir());

    private HttpServer api;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private Station station;

    @BeforeEach
    void startApi() throws Exception {
        api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.createContext(
                "/",
                x -> {
                    calls.add(
                            x.getRequestURI().getPath()
                                    + " "
                                    + new String(
                                            x.getRequestBody().readAllBytes(),
                                            StandardCharsets.UTF_8));
                    x.sendResponseHeaders(200, 2);
                    try (OutputStream o = x.getResponseBody()) {
                        o.write("ok".getBytes(StandardCharsets.UTF_8));
                    }
                });
        api.start();
    }

    @AfterEach
    void stop() {
        if (station != null) station.stop();
        api.stop(0);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + api.getAddress().getPort() + path;
    }

    private Station start(String script) {
        station = Station.load("x.liq", script, PLUGINS.functions(), Map.of());
        station.start(null);
        return station;
    }

    private boolean await(Predicate<List<String>> p) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            if (p.test(calls)) return true;
            Thread.sleep(50);
        }
        return false;
    }

    @Test
    void onMetadataNotSynchronousMayPostOffTheClock() throws Exception {
        start(
                """
                s = sine(amplitude=0.1, 440.)
                # "second" is inserted by the task that inserted "first": two tasks due 0.3 s apart
                # may run at once on a loaded machine, in either order
                thread.run(delay=0.3, fun () -> begin
                  s.insert_metadata([("title", "first")])
                  thread.run(delay=0.3, fun () -> s.insert_metadata([("title", "second")]))
                end)
                def feedback(m) =
                  _ = http.post(data=m["title"], "%s")
                end
                s.on_metadata(synchronous=false, feedback)
                source.on_track(synchronous=false, s, fun (m) -> ignore(http.post(data=m["title"], "%s")))
                output.dummy(s)
                """
                        .formatted(url("/feedback"), url("/track")));
        assertTrue(
                await(c -> c.contains("/feedback first") && c.contains("/feedback second")),
                calls.toString());
        assertTrue(
                calls.indexOf("/feedback first") < calls.indexOf("/feedback second"),
                calls.toString());
        assertTrue(await(c -> c.stream().anyMatch(x -> x.startsWith("/track"))), calls.toString());
    }

    @Test
    void harborConnectionCallbacksAreMethodsThatMayPost() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        start(
                """
                live = input.harbor("live", port=%d, password="secret")
                live.on_connect(synchronous=false, fun (headers) -> ignore(http.post(data=list.assoc(default="?", "user-agent", headers), "%s")))
                live.on_disconnect(synchronous=false, fun () -> ignore(http.post(data="bye", "%s")))
                output.dummy(mksafe(live))
                """
                        .formatted(port, url("/djon"), url("/djoff")));
        try (Socket dj = new Socket("127.0.0.1", port)) {
            String auth =
                    Base64.getEncoder()
                            .encodeToString("source:secret".getBytes(StandardCharsets.UTF_8));
            dj.getOutputStream()
                    .write(
                            ("PUT /live HTTP/1.1\r\nHost: x\r\nAuthorization: Basic "
                                            + auth
                                            + "\r\nUser-Agent: dj-test\r\nContent-Type: audio/mpeg\r\n"
                                            + "Ice-Public: 0\r\n\r\n")
                                    .getBytes(StandardCharsets.US_ASCII));
            dj.getOutputStream().flush();
            assertTrue(await(c -> c.contains("/djon dj-test")), calls.toString());
        }
        assertTrue(await(c -> c.contains("/djoff bye")), calls.toString());
    }

    @Test
    void outputHarborCallbacksGetTheListenersHeadersUriAndAddress() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        start(
                """
                def connected(~headers, ~uri, ~protocol, address) =
                  ignore(http.post(data=address ^ " " ^ uri ^ " " ^ protocol ^ " " ^ list.assoc(default="?", "user-agent", headers), "%s"))
                end
                output.harbor(%%mp3(bitrate=128), mount="radio", port=%d, on_connect=connected, on_disconnect=fun (address) -> ignore(http.post(data="bye " ^ address, "%s")), sine())
                """
                        .formatted(url("/on"), port, url("/off")));
        try (Socket listener = new Socket("127.0.0.1", port)) {
            listener.getOutputStream()
                    .write(
                            "GET /radio?token=x HTTP/1.0\r\nUser-Agent: ls-test\r\n\r\n"
                                    .getBytes(StandardCharsets.US_ASCII));
            listener.getOutputStream().flush();
            listener.getInputStream().read(new byte[1024]);
            assertTrue(
                    await(c -> c.contains("/on 127.0.0.1 /radio?token=x http ls-test")),
                    calls.toString());
        }
        assertTrue(await(c -> c.contains("/off bye 127.0.0.1")), calls.toString());
    }
}
