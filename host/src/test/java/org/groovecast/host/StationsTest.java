package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.groovecast.host.script.ScriptCompilerTest;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stations of one process: each on air on its own, a broken one reported and retried alone, a
 * reload of each, all on one scheduler's workers.
 */
@Tag("integration")
class StationsTest {
    private static final String GOOD = "out.sink(tone(440, id: 'music'), id: 'out')\n";

    @TempDir Path dir;

    private final List<String> reported = new CopyOnWriteArrayList<>();

    private Stations stations(List<Path> scripts) {
        return new Stations(
                scripts,
                ScriptCompilerTest::functions,
                Map.of(),
                (script, e) -> {
                    switch (e) {
                        case ScriptErrors all ->
                                all.errors().forEach(x -> reported.add(x.getMessage()));
                        case ScriptError one -> reported.add(one.getMessage());
                        default -> reported.add(script.getFileName() + ": " + e.getMessage());
                    }
                });
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not within 10 s: " + what);
            Thread.sleep(20);
        }
    }

    private static long ticks(Stations s, String name) {
        Station station = s.reloader(name).current();
        return station == null || station.clocks().isEmpty()
                ? -1
                : station.clocks().getFirst().getTicks();
    }

    @Test
    void aBrokenStationIsReportedWithItsLineAndRetriedAloneWhileTheOthersPlay() throws Exception {
        Path a = Files.writeString(dir.resolve("a.groovy"), GOOD);
        Path b = Files.writeString(dir.resolve("b.groovy"), GOOD);
        Path broken = Files.writeString(dir.resolve("broken.groovy"), "out.sink(nothing(1))\n");
        Stations s = stations(List.of(a, b, broken));
        try {
            s.start();
            await(() -> s.onAir("a.groovy") && s.onAir("b.groovy"), "a and b on air");
            await(() -> !reported.isEmpty(), "the broken script reported");
            assertTrue(
                    reported.getFirst().startsWith("broken.groovy:1:"),
                    "located: " + reported.getFirst());
            assertFalse(s.onAir("broken.groovy"));
            long before = ticks(s, "a.groovy");
            Thread.sleep(300);
            assertTrue(ticks(s, "a.groovy") > before + 5, "a plays on");

            // Retried alone after its backoff, and at once when poked (its file changed).
            await(() -> s.failures("broken.groovy") >= 2, "a retry after the backoff");
            Files.writeString(broken, GOOD);
            s.reload("broken.groovy");
            await(() -> s.onAir("broken.groovy"), "the mended script on air");
            assertTrue(s.onAir("a.groovy") && s.onAir("b.groovy"));
        } finally {
            s.close();
        }
        assertFalse(s.onAir("a.groovy"));
    }

    @Test
    void aReloadOfAllReloadsEachStationAndTheyShareOneSchedulersWorkers() throws Exception {
        Path a = Files.writeString(dir.resolve("a.groovy"), GOOD);
        Path b = Files.writeString(dir.resolve("b.groovy"), GOOD);
        Stations s = stations(List.of(a, b));
        try {
            s.start();
            await(() -> s.onAir("a.groovy") && s.onAir("b.groovy"), "both on air");
            Station firstA = s.reloader("a.groovy").current();
            Station firstB = s.reloader("b.groovy").current();
            assertNotSame(firstA.taskScheduler(), firstB.taskScheduler());
            assertEquals(
                    firstA.taskScheduler().threads(),
                    firstB.taskScheduler().threads(),
                    "one pool's workers");

            s.reloadAll();
            assertNotNull(s.reloader("a.groovy").lastReload(), "a reloaded");
            assertNotNull(s.reloader("b.groovy").lastReload(), "b reloaded");
            assertNotSame(firstA, s.reloader("a.groovy").current());
            assertTrue(firstA.awaitStopped(Duration.ofSeconds(5)));
            // The old station's stop ended its own work only: the new ones still tick.
            long before = ticks(s, "b.groovy");
            Thread.sleep(300);
            assertTrue(
                    ticks(s, "b.groovy") > before + 5, "b plays on after a's old station stopped");
        } finally {
            s.close();
        }
    }

    @Test
    void twoStationsOnOneHarborPortShareItAndWhatBothServeIsTheFirstStations() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String page = GOOD + "status.page(port: " + port + ")\n";
        Path a = Files.writeString(dir.resolve("a.groovy"), page);
        Stations s = stations(List.of(a, Files.writeString(dir.resolve("b.groovy"), page)));
        try {
            s.start();
            await(() -> s.onAir("a.groovy") && s.onAir("b.groovy"), "both on air, on one port");
            assertEquals(List.of(), reported);
            // Both declare the status page's routes: the first station's in the given order
            // answers, whichever bound the port.
            String clocks =
                    new String(
                            java.net
                                    .URI
                                    .create("http://127.0.0.1:" + port + "/api/clocks")
                                    .toURL()
                                    .openStream()
                                    .readAllBytes(),
                            java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(clocks.contains("\"station\":\"a.groovy\""), clocks);
        } finally {
            s.close();
        }
    }

    @Test
    void aDirectoryGivesItsScriptsInNameOrderAndTwoOfOneNameAreRefused() throws Exception {
        Files.writeString(dir.resolve("b.liq"), "");
        Files.writeString(dir.resolve("a.groovy"), "");
        Files.writeString(dir.resolve("notes.txt"), "");
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/c.groovy"), "");
        assertEquals(
                List.of(dir.resolve("a.groovy"), dir.resolve("b.liq")), Stations.inDirectory(dir));
        IllegalArgumentException twice =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                stations(
                                        List.of(
                                                dir.resolve("a.groovy"),
                                                dir.resolve("sub").resolve("a.groovy"))));
        assertTrue(twice.getMessage().contains("two stations named a.groovy"), twice.getMessage());
    }
}
