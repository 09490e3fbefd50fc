package org.groovecast.host.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.groovecast.api.ResolvedRequest;
import org.groovecast.host.Settings;
import org.groovecast.host.script.ScriptFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resolution through a station's protocols: nesting, alternatives, temporary files, failures,
 * downloads.
 */
class ProtocolsTest {
    @TempDir Path dir;
    Settings settings;
    Protocols protocols;
    HttpServer http;

    @BeforeEach
    void setUp() {
        settings = new Settings();
        protocols =
                new Protocols(
                        () -> settings.number("request.timeout"),
                        () -> settings.integer("request.maxDownload"),
                        () -> ScriptFiles.single("radio.groovy"));
    }

    @AfterEach
    void tearDown() {
        protocols.close();
        if (http != null) http.stop(0);
    }

    /** Resolves and keeps the resolved request (the test closes it). */
    ResolvedRequest resolve(String uri) throws IOException {
        return protocols.resolve(uri, null, 0, r -> r);
    }

    Path file(String name) throws IOException {
        return Files.writeString(dir.resolve(name), name);
    }

    @Test
    void annotateAndAScriptProtocolNestInnerValuesWin() throws IOException {
        Path a = file("a.mp3");
        protocols.add("media", args -> dir + "/" + args[0], false, false);
        ResolvedRequest r =
                resolve(
                        "annotate:title=\"T\",liq_cue_in=\"2\",artist=A:annotate:title=\"Inner, with: marks\":media:a.mp3");
        assertEquals(a.toString(), r.file());
        assertEquals(
                Map.of("title", "Inner, with: marks", "liq_cue_in", "2", "artist", "A"),
                r.metadata());
        r.close();
        assertTrue(Files.exists(a), "a plain file is never deleted");
    }

    @Test
    void aProtocolMayAnswerAUriWithProtocolsAndAnnotations() throws IOException {
        Path b = file("b.mp3");
        protocols.add(
                "media",
                args -> "annotate:title=\"From media\":file://" + dir + "/" + args[0],
                false,
                false);
        protocols.add("song", args -> "media:" + args[0] + ".mp3", false, false);
        ResolvedRequest r = resolve("song:b");
        assertEquals(b.toString(), r.file());
        assertEquals("From media", r.metadata().get("title"));
    }

    @Test
    void relativePathsAreUnderTheBaseDirectoryPrefixesIncluded() throws IOException {
        Path c = file("c.mp3");
        assertEquals(c.toString(), protocols.resolve("c.mp3", dir, 0, ResolvedRequest::file));
        assertEquals(
                c.toString(),
                protocols.resolve("annotate:x=\"1\":c.mp3", dir, 0, ResolvedRequest::file));
        assertEquals(c.toString(), protocols.resolve("file:c.mp3", dir, 0, ResolvedRequest::file));
        assertEquals(
                dir.resolve("missing.mp3").toString(),
                protocols.resolve("missing.mp3", dir, 0, ResolvedRequest::file),
                "a missing file goes to the opener, which says why it cannot open it");
    }

    @Test
    void aUrlNoProtocolTakesGoesToTheDecoderAsItIs() throws IOException {
        assertEquals("rtsp://example.com/live", resolve("rtsp://example.com/live").file());
    }

    @Test
    void anUnknownProtocolIsNamed() {
        IOException e =
                assertThrows(
                        IOException.class, () -> resolve("annotate:title=\"x\":nosuch:song.mp3"));
        assertEquals(
                "nosuch:song.mp3: no such file, and nosuch: is no known protocol", e.getMessage());
    }

    @Test
    void aMalformedAnnotationIsNamed() {
        IOException e =
                assertThrows(IOException.class, () -> resolve("annotate:title=\"open:/a.mp3"));
        assertTrue(e.getMessage().startsWith("annotate: unterminated quote"), e.getMessage());
    }

    @Test
    void severalUrisAreAlternativesAndATemporaryProtocolsLeftoversGo() throws IOException {
        Path missing = dir.resolve("missing.mp3");
        Path rejected = file("rejected.mp3");
        Path good = file("good.mp3");
        Path untried = file("untried.mp3");
        protocols.add(
                "cache",
                args ->
                        List.of(
                                missing.toString(),
                                rejected.toString(),
                                good.toString(),
                                untried.toString()),
                false,
                true);
        List<String> offered = new ArrayList<>();
        ResolvedRequest r =
                protocols.resolve(
                        "cache:x",
                        null,
                        0,
                        res -> {
                            offered.add(res.file());
                            if (!Files.exists(Path.of(res.file())))
                                throw new IOException("cannot open " + res.file());
                            if (res.file().equals(rejected.toString()))
                                throw new IOException("not audio");
                            return res;
                        });
        assertEquals(List.of(missing.toString(), rejected.toString(), good.toString()), offered);
        assertEquals(good.toString(), r.file());
        assertFalse(
                Files.exists(rejected), "a temporary file the opener rejected is deleted at once");
        assertFalse(Files.exists(untried), "an alternative never tried will not play: deleted");
        assertTrue(Files.exists(good));
        r.close();
        assertFalse(Files.exists(good), "the played temporary file is deleted when closed");
    }

    @Test
    void whenEveryAlternativeFailsTheLastReasonIsGiven() {
        protocols.add("two", args -> List.of("nosuch:a", "alsonot:b"), false, false);
        IOException e = assertThrows(IOException.class, () -> resolve("two:x"));
        assertEquals("alsonot:b: no such file, and alsonot: is no known protocol", e.getMessage());
    }

    @Test
    void tmpFilesAreDeletedOnceClosed() throws IOException {
        Path t = file("t.mp3");
        ResolvedRequest r = resolve("annotate:title=\"x\":tmp:" + t);
        assertEquals(t.toString(), r.file());
        assertTrue(Files.exists(t));
        r.close();
        assertFalse(Files.exists(t));
    }

    @Test
    void aLoopOfProtocolsIsCutAtTheDepthLimit() {
        protocols.add("loop", args -> "loop:" + args[0], false, false);
        IOException e = assertThrows(IOException.class, () -> resolve("loop:x"));
        assertEquals(
                "loop:x: more than " + Resolution.MAX_DEPTH + " protocols deep, a loop?",
                e.getMessage());
    }

    @Test
    void nothingAThrowAndAWrongTypeAreFailuresNamingTheProtocol() {
        protocols.add("none", args -> null, false, false);
        protocols.add("empty", args -> List.of(), false, false);
        protocols.add(
                "bad",
                args -> {
                    throw new IllegalStateException("the database is down");
                },
                false,
                false);
        protocols.add("number", args -> 42, false, false);
        assertEquals(
                "protocol none found nothing for x",
                assertThrows(IOException.class, () -> resolve("none:x")).getMessage());
        assertEquals(
                "protocol empty found nothing for x",
                assertThrows(IOException.class, () -> resolve("empty:x")).getMessage());
        assertEquals(
                "protocol bad failed: the database is down",
                assertThrows(IOException.class, () -> resolve("bad:x")).getMessage());
        assertEquals(
                "protocol number answered Integer 42; expected a uri, a list of uris or null",
                assertThrows(IOException.class, () -> resolve("number:x")).getMessage());
    }

    @Test
    void aHungProtocolIsAbandonedAtTheTimeoutAndInterrupted() throws Exception {
        settings.set("request.timeout", 0.3);
        CountDownLatch interrupted = new CountDownLatch(1);
        AtomicReference<Object> timeoutGiven = new AtomicReference<>();
        protocols.add(
                "hang",
                args -> {
                    timeoutGiven.set(args[1]);
                    try {
                        Thread.sleep(30_000);
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                    }
                    return "/never";
                },
                true,
                false);
        long t0 = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> resolve("annotate:a=\"1\":hang:x"));
        double took = (System.nanoTime() - t0) / 1e9;
        assertTrue(
                e.getMessage().startsWith("protocol hang did not answer within 0.3"),
                e.getMessage());
        assertTrue(took >= 0.25 && took < 2, "abandoned after " + took + " s");
        assertTrue(interrupted.await(2, TimeUnit.SECONDS), "the abandoned function is interrupted");
        assertTrue(
                timeoutGiven.get() instanceof Double d && d > 0 && d <= 0.3,
                "given the seconds left: " + timeoutGiven.get());
    }

    @Test
    void aRequestTimeoutOfItsOwnOverridesTheSetting() {
        protocols.add(
                "slow",
                args -> {
                    try {
                        Thread.sleep(1_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return "/never";
                },
                false,
                false);
        long t0 = System.nanoTime();
        assertThrows(IOException.class, () -> protocols.resolve("slow:x", null, 0.2, r -> r));
        assertTrue((System.nanoTime() - t0) / 1e9 < 0.9);
    }

    /**
     * Serves {@code body} at {@code path}; {@code stallAfter} bytes in, the body stalls for 5 s
     * (-1: never).
     */
    int serve(String path, int status, byte[] body, boolean withLength, int stallAfter)
            throws IOException {
        if (http == null) {
            http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            http.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            http.start();
        }
        http.createContext(
                path,
                exchange -> {
                    exchange.sendResponseHeaders(
                            status, withLength ? (body.length == 0 ? -1 : body.length) : 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        if (stallAfter < 0) {
                            out.write(body);
                        } else {
                            out.write(body, 0, stallAfter);
                            out.flush();
                            Thread.sleep(5_000);
                            out.write(body, stallAfter, body.length - stallAfter);
                        }
                    } catch (IOException | InterruptedException clientGone) {
                        // the download was abandoned
                    }
                });
        return http.getAddress().getPort();
    }

    @Test
    void httpDownloadsToATemporaryFileDeletedOnceClosed() throws IOException {
        byte[] body = new byte[200_000];
        Arrays.fill(body, (byte) 7);
        int port = serve("/songs/a.mp3", 200, body, true, -1);
        serve("/songs/chunked.mp3", 200, body, false, -1);
        ResolvedRequest r =
                resolve("annotate:title=\"Remote\":http://127.0.0.1:" + port + "/songs/a.mp3");
        Path f = Path.of(r.file());
        assertTrue(f.getFileName().toString().endsWith(".mp3"), f.toString());
        assertTrue(Arrays.equals(body, Files.readAllBytes(f)));
        assertEquals("Remote", r.metadata().get("title"));
        r.close();
        assertFalse(Files.exists(f), "a download is deleted when closed");
        ResolvedRequest chunked = resolve("http://127.0.0.1:" + port + "/songs/chunked.mp3");
        assertEquals(body.length, Files.size(Path.of(chunked.file())));
        chunked.close();
    }

    @Test
    void httpErrorsSizeLimitAndAClosedPortAreNamed() throws IOException {
        byte[] body = new byte[5_000];
        int port = serve("/big.mp3", 200, body, true, -1);
        serve("/big-chunked.mp3", 200, body, false, -1);
        serve("/gone.mp3", 404, new byte[0], true, -1);
        settings.set("request.maxDownload", 1_000);
        String base = "http://127.0.0.1:" + port;
        assertEquals(
                base + "/gone.mp3: HTTP 404",
                assertThrows(IOException.class, () -> resolve(base + "/gone.mp3")).getMessage());
        assertEquals(
                base + "/big.mp3: 5000 bytes, over settings.request.maxDownload (1000)",
                assertThrows(IOException.class, () -> resolve(base + "/big.mp3")).getMessage());
        assertEquals(
                base + "/big-chunked.mp3: over settings.request.maxDownload (1000 bytes)",
                assertThrows(IOException.class, () -> resolve(base + "/big-chunked.mp3"))
                        .getMessage());
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        String message =
                assertThrows(
                                IOException.class,
                                () -> resolve("http://127.0.0.1:" + closed + "/x.mp3"))
                        .getMessage();
        assertTrue(
                message.startsWith("http://127.0.0.1:" + closed + "/x.mp3: cannot connect"),
                message);
    }

    @Test
    void aStalledDownloadIsAbandonedAtTheTimeoutLeavingNoFile() throws Exception {
        int port = serve("/stalls.slow", 200, new byte[100_000], true, 10_000);
        settings.set("request.timeout", 0.5);
        long t0 = System.nanoTime();
        IOException e =
                assertThrows(
                        IOException.class,
                        () -> resolve("http://127.0.0.1:" + port + "/stalls.slow"));
        assertTrue((System.nanoTime() - t0) / 1e9 < 2, "abandoned in time");
        assertEquals(
                "http://127.0.0.1:"
                        + port
                        + "/stalls.slow: download not complete within 0.50 s; abandoned",
                e.getMessage());
        Thread.sleep(500);
        try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertFalse(
                    files.anyMatch(p -> p.getFileName().toString().endsWith(".slow")),
                    "the partial download is deleted");
        }
    }

    @Test
    void protocolNamesAreChecked() {
        AtomicBoolean called = new AtomicBoolean();
        assertThrows(
                org.groovecast.api.ScriptException.class,
                () ->
                        protocols.add(
                                "not a name",
                                args -> {
                                    called.set(true);
                                    return null;
                                },
                                false,
                                false));
        assertFalse(called.get());
    }
}
