package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HlsPublisher} against a tiny origin in the test: what it asks for, and when. */
class HlsPublisherOriginTest {
    /** One request the origin got: its method, file and when it was answered (nanoTime). */
    record Request(String method, String name, long at) {}

    @TempDir Path dir;
    HttpServer server;
    final List<Request> requests = new CopyOnWriteArrayList<>();
    volatile int deleteStatus = 204;
    volatile long putMillis;
    HlsPublisher publisher;

    @AfterEach
    void stop() {
        if (publisher != null) {
            publisher.close(0);
            publisher.awaitDrained(5000);
        }
        if (server != null) server.stop(0);
    }

    HlsPublisher start(Duration deleteDelay) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/live/",
                x -> {
                    x.getRequestBody().readAllBytes();
                    String method = x.getRequestMethod();
                    if (method.equals("PUT") && putMillis > 0) {
                        try {
                            Thread.sleep(putMillis);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    int status = method.equals("DELETE") ? deleteStatus : 201;
                    // Recorded before the answer: once the publisher has it (and may end), the
                    // test sees the request (recorded after, a loaded machine let the publisher's
                    // thread end first)
                    requests.add(
                            new Request(
                                    method,
                                    x.getRequestURI().getPath().substring(6),
                                    System.nanoTime()));
                    x.sendResponseHeaders(status, -1);
                    x.close();
                });
        server.start();
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/live/");
        publisher = new HlsPublisher(base, Map.of(), dir, "test", deleteDelay);
        publisher.start();
        return publisher;
    }

    void segment(int i) throws Exception {
        Files.writeString(dir.resolve("a_" + i + ".ts"), "segment " + i);
        publisher.file("a_" + i + ".ts");
        publisher.playlist(
                "a.m3u8",
                "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:" + i + "\na_" + i + ".ts\n",
                List.of("a_" + i + ".ts"));
    }

    static void await(double seconds, BooleanSupplier done) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (!done.getAsBoolean() && System.nanoTime() < end) Thread.sleep(10);
        assertTrue(done.getAsBoolean(), "not within " + seconds + " s");
    }

    long count(String method, String name) {
        return requests.stream()
                .filter(r -> r.method().equals(method) && (name == null || r.name().equals(name)))
                .count();
    }

    @Test
    void anOriginRefusingDeleteIsAskedOnceAndPublishingGoesOnWithoutBackoffOrGrowth()
            throws Exception {
        start(Duration.ZERO);
        deleteStatus = 405;
        long t0 = System.nanoTime();
        for (int i = 0; i < 8; i++) {
            segment(i);
            if (i > 0) publisher.expired(List.of("a_" + (i - 1) + ".ts"));
            int n = i;
            await(5, () -> count("PUT", "a.m3u8") == n + 1);
            Thread.sleep(30); // the DELETE, if any, goes after the playlist
        }
        await(5, () -> count("PUT", "a.m3u8") >= 8);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(1, count("DELETE", null), "a refused DELETE is not asked again: " + requests);
        assertEquals(0, publisher.expiredCount(), "nothing kept for deletes that will not happen");
        assertTrue(
                seconds < 3,
                "no backoff after a DELETE the origin refuses for good: " + seconds + " s");
    }

    @Test
    void aFileNoLongerNamedIsDeletedOnlyAfterItsDurationAndThePlaylistsHavePassed()
            throws Exception {
        start(Duration.ofMillis(1500));
        segment(0);
        await(5, () -> count("PUT", "a.m3u8") == 1);
        segment(1);
        publisher.expired(List.of("a_0.ts"));
        await(5, () -> count("PUT", "a.m3u8") == 2);
        long unnamed =
                requests.stream()
                        .filter(r -> r.name().equals("a.m3u8"))
                        .reduce((a, b) -> b)
                        .orElseThrow()
                        .at();
        await(5, () -> count("DELETE", "a_0.ts") == 1);
        long deleted =
                requests.stream()
                        .filter(r -> r.method().equals("DELETE"))
                        .findFirst()
                        .orElseThrow()
                        .at();
        double after = (deleted - unnamed) / 1e9;
        assertTrue(
                after >= 1.4,
                "a player that loaded the old playlist still finds a_0.ts for 1.5 s; deleted after "
                        + after
                        + " s");
    }

    @Test
    void closeReturnsAtOnceAndTheThreadSendsWhatWaitsOnItsOwn() throws Exception {
        start(Duration.ZERO);
        putMillis = 1000;
        segment(0);
        await(5, () -> true);
        long t0 = System.nanoTime();
        publisher.close(5000);
        double closing = (System.nanoTime() - t0) / 1e9;
        assertTrue(closing < 0.3, "close() waited " + closing + " s for a slow origin");
        assertTrue(publisher.awaitDrained(8000), "the thread ends within its budget");
        assertEquals(1, count("PUT", "a_0.ts"));
        assertEquals(
                1,
                count("PUT", "a.m3u8"),
                "the last playlist still goes out after close(): " + requests);
        publisher = null;
    }

    @Test
    void aFailingDeleteIsOneEpisodeWhatEverPutsSucceedMeanwhile() throws Exception {
        start(Duration.ZERO);
        deleteStatus = 500;
        long end = System.nanoTime() + 4_000_000_000L;
        for (int i = 0; System.nanoTime() < end; i++) {
            segment(i);
            if (i > 0) publisher.expired(List.of("a_" + (i - 1) + ".ts"));
            Thread.sleep(100);
        }
        // One episode: its backoff grows (0.5, 1, 2 s...), a few tries in 4 s. Were each PUT that
        // succeeds the end of it, every try would start again at 0.5 s: eight or more.
        long deletes = count("DELETE", null);
        assertTrue(deletes >= 2 && deletes <= 5, deletes + " DELETEs in 4 s: " + requests);
        assertTrue(count("PUT", "a.m3u8") >= 3, "the playlists go on between the tries");
    }
}
