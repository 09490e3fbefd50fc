package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.groovecast.net.Network;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.Route;
import org.groovecast.net.runtime.NetRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two stations' networks of one process on one harbor port ({@link HarborPorts}): one socket,
 * requests routed to the station whose mount they ask for, what both declare to the first station
 * in the process's order; a mount is one station's; a station that leaves or reloads touches only
 * its own mounts. Real sockets on a real port.
 */
class SharedPortTest {
    private NetRuntime runtime;
    private HarborPorts ports;
    private final List<Network> networks = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private int port;

    @BeforeEach
    void setUp() throws IOException {
        runtime = NetRuntime.start(1);
        ports = new HarborPorts(List.of("a.groovy", "b.groovy")::indexOf);
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
    }

    @AfterEach
    void tearDown() throws IOException {
        for (Socket s : sockets) s.close();
        networks.forEach(Network::close);
        runtime.close();
    }

    /** A station's network, as a process running many makes it. */
    private Network station(String name) {
        Network n = new Network("127.0.0.1", 1 << 16, null);
        n.useRuntime(() -> runtime);
        n.sharePorts(ports, name);
        networks.add(n);
        return n;
    }

    private HarborMount mount(Network n, String path, String type) {
        return n.harbor(port)
                .mount(path, type, () -> new HarborMount(path, type, 0, 1 << 16, Map.of()));
    }

    private static Route text(String path, String body) {
        return new Route("GET", path, req -> HttpReply.text(200, body));
    }

    /** A listener of {@code path}: connected, its answer's head read. */
    private record Listener(Socket socket, String head) {
        /** Whether it receives {@code chunk} when {@code mount} publishes it. */
        boolean hears(HarborMount mount, String chunk) throws IOException {
            mount.publish(Unpooled.copiedBuffer(chunk, StandardCharsets.ISO_8859_1));
            byte[] b = socket.getInputStream().readNBytes(chunk.length());
            return new String(b, StandardCharsets.ISO_8859_1).equals(chunk);
        }

        /** Whether the harbor closed it (within 3 s). */
        boolean closed() throws IOException {
            try {
                return socket.getInputStream().read() < 0;
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                return true; // reset
            }
        }
    }

    private Listener listen(String path, HarborMount mount) throws Exception {
        int before = mount.listeners();
        Socket s = new Socket("127.0.0.1", port);
        sockets.add(s);
        s.setSoTimeout(3000);
        s.getOutputStream().write(("GET " + path + " HTTP/1.0\r\n\r\n").getBytes());
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) break;
            head.write(c);
        }
        await(() -> mount.listeners() > before, "the listener attached to " + path);
        return new Listener(s, head.toString(StandardCharsets.ISO_8859_1));
    }

    /** The whole answer to a GET of {@code path}. */
    private String get(String path) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(3000);
            s.getOutputStream()
                    .write(
                            ("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                                    .getBytes());
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not within 5 s: " + what);
            Thread.sleep(10);
        }
    }

    private boolean portFree() {
        try (ServerSocket s = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void twoStationsServeTheirOwnMountsOnOneSocket() throws Exception {
        Network a = station("a.groovy");
        Network b = station("b.groovy");
        HarborMount ma = mount(a, "/a", "audio/mpeg");
        HarborMount mb = mount(b, "/b", "audio/ogg");
        a.start(1);
        b.start(1); // the port is a's socket already: b joins it

        Listener la = listen("/a", ma);
        Listener lb = listen("/b", mb);
        assertTrue(la.head().contains("Content-Type: audio/mpeg"), la.head());
        assertTrue(lb.head().contains("Content-Type: audio/ogg"), lb.head());
        assertTrue(la.hears(ma, "from a"));
        assertTrue(lb.hears(mb, "from b"));
        assertEquals(1, ma.listeners());
        assertEquals(1, mb.listeners());

        assertTrue(get("/b.m3u").contains("/b\n"), "a mount's playlist is its station's");
        assertTrue(get("/c").startsWith("HTTP/1.1 404"), "a path no station serves");
        assertEquals(List.of("a.groovy", "b.groovy"), b.harbor(port).sharedWith());
    }

    @Test
    void whatSeveralStationsDeclareIsTheFirstStationsInTheProcesssOrder() throws Exception {
        Network b = station("b.groovy");
        b.harbor(port).addRoute(text("/status", "b's page"));
        b.harbor(port).addRoute(text("/only-b", "b alone"));
        b.start(1); // b binds the port: first to start, second in the process's order
        Network a = station("a.groovy");
        a.harbor(port).addRoute(text("/status", "a's page"));
        a.start(1);

        assertTrue(get("/status").endsWith("a's page"), "the first station's page");
        assertTrue(get("/only-b").endsWith("b alone"), "a route only b declares");

        a.close();
        assertTrue(get("/status").endsWith("b's page"), "a left: b's page now");
        assertFalse(portFree(), "b still listens");
    }

    @Test
    void aMountAnotherStationHoldsOnThePortIsRefusedNamingItAndTheFirstServesOn() throws Exception {
        Network a = station("a.groovy");
        HarborMount ma = mount(a, "/live", "audio/mpeg");
        a.start(1);
        Listener la = listen("/live", ma);

        Network b = station("b.groovy");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> mount(b, "/live", "audio/mpeg"));
        assertEquals(
                "port "
                        + port
                        + " already has a mount at /live, station a.groovy's: stations of one"
                        + " process share a port only with mounts of their own",
                e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> b.harbor(port).addIngest(new Ingest("/live")),
                "nor a live input there");
        b.close(); // its load failed

        assertTrue(la.hears(ma, "still a"));
        assertFalse(portFree());
    }

    @Test
    void aMountDeclaredByAStationStillLoadingIsTaken() {
        Network a = station("a.groovy");
        mount(a, "/x", "audio/mpeg"); // a's script is loading: nothing started yet
        Network b = station("b.groovy");
        assertThrows(IllegalArgumentException.class, () -> mount(b, "/x", "audio/mpeg"));
    }

    @Test
    void aStationThatLeavesClosesOnlyItsOwnMountsAndTheLastOneTheSocket() throws Exception {
        Network a = station("a.groovy");
        Network b = station("b.groovy");
        HarborMount ma = mount(a, "/a", "audio/mpeg");
        HarborMount mb = mount(b, "/b", "audio/mpeg");
        a.start(1);
        b.start(1);
        Listener la = listen("/a", ma);
        Listener lb = listen("/b", mb);

        b.close();
        assertTrue(lb.closed(), "b's listener is let go with b");
        assertTrue(get("/b").startsWith("HTTP/1.1 404"), "b's mount is gone");
        assertTrue(la.hears(ma, "a plays on"));
        assertFalse(portFree(), "a keeps the socket");

        // b's mount is free for another station now
        Network c = station("c.groovy");
        HarborMount mc = mount(c, "/b", "audio/mpeg");
        c.start(1);
        assertTrue(listen("/b", mc).hears(mc, "c's /b"));

        a.close();
        assertTrue(la.closed());
        assertFalse(portFree(), "c is still on the port");
        c.close();
        await(this::portFree, "the last station left: the socket closed");
    }

    @Test
    void aReloadOfOneStationLeavesTheOthersListenerAndKeepsItsOwn() throws Exception {
        Network a = station("a.groovy");
        Network b = station("b.groovy");
        HarborMount ma = mount(a, "/a", "audio/mpeg");
        HarborMount mb = mount(b, "/b", "audio/mpeg");
        a.start(1);
        b.start(1);
        Listener la = listen("/a", ma);
        Listener lb = listen("/b", mb);

        // a reloads: /a declared again (its listener kept) and a new mount
        a.beginLoad();
        assertEquals(ma, mount(a, "/a", "audio/mpeg"));
        HarborMount ma2 = mount(a, "/a2", "audio/mpeg");
        a.start(1);
        assertTrue(la.hears(ma, "a kept"));
        assertTrue(lb.hears(mb, "b untouched"));
        assertTrue(listen("/a2", ma2).hears(ma2, "a's new mount"));

        // a reload of a that claims b's mount fails, and changes nothing
        a.beginLoad();
        mount(a, "/a", "audio/mpeg");
        assertThrows(IllegalArgumentException.class, () -> mount(a, "/b", "audio/mpeg"));
        a.abortLoad();
        assertTrue(la.hears(ma, "a still"));
        assertTrue(lb.hears(mb, "b still"));

        // a reload of a that drops /a closes a's listener only
        a.beginLoad();
        mount(a, "/a2", "audio/mpeg");
        a.start(1);
        assertTrue(la.closed(), "a's dropped mount let its listener go");
        assertTrue(lb.hears(mb, "b after a dropped /a"));
    }

    @Test
    void aFailedReloadLetsGoOfWhatItDeclaredOnAPortItWouldHaveShared() throws Exception {
        int other = port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Network a = station("a.groovy");
        a.harbor(other).addRoute(text("/", "a"));
        a.start(1);
        a.beginLoad();
        a.harbor(other).addRoute(text("/", "a"));
        mount(a, "/y", "audio/mpeg"); // on a port a did not serve
        a.abortLoad();

        Network b = station("b.groovy");
        HarborMount mb = mount(b, "/y", "audio/mpeg");
        b.start(1);
        assertTrue(listen("/y", mb).hears(mb, "b's /y"));
    }

    @Test
    void aStationAskingAnotherAddressForTheSharedPortIsRefused() {
        Network a = station("a.groovy");
        mount(a, "/a", "audio/mpeg");
        a.start(1);
        Network b = station("b.groovy");
        b.bind("0.0.0.0");
        mount(b, "/b", "audio/mpeg");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> b.start(1));
        assertTrue(
                e.getMessage().contains("station a.groovy listens on 127.0.0.1:" + port),
                e.getMessage());
        b.close();
        assertFalse(portFree(), "a keeps its socket");
    }

    /** A live input that takes nobody: only its path matters here. */
    private record Ingest(String path) implements HarborIngest {
        @Override
        public Login login(String user, String password) {
            return Login.refused(user);
        }

        @Override
        public Login icyLogin(String password) {
            return Login.refused("source");
        }

        @Override
        public double authTimeout() {
            return 1;
        }

        @Override
        public Session connect(
                RequestHead head,
                io.netty.channel.ChannelHandlerContext ctx,
                String peer,
                Login login) {
            return null;
        }

        @Override
        public Session connect(
                RequestHead head,
                String contentType,
                io.netty.channel.ChannelHandlerContext ctx,
                String peer,
                Login login,
                Answer answer) {
            return null;
        }

        @Override
        public int adminMetadata(Map<String, String> params) {
            return 404;
        }
    }
}
