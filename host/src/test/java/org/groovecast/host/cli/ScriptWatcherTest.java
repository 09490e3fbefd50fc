package org.groovecast.host.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScriptWatcherTest {
    @TempDir Path dir;

    /** Appends to a file beside the script every 50 ms (a log, a recording) until closed. */
    private static final class Neighbour implements AutoCloseable {
        private final Thread thread;

        Neighbour(Path file) {
            thread =
                    Thread.ofPlatform()
                            .daemon()
                            .start(
                                    () -> {
                                        try {
                                            while (!Thread.currentThread().isInterrupted()) {
                                                Files.writeString(
                                                        file,
                                                        "a line of log\n",
                                                        StandardOpenOption.CREATE,
                                                        StandardOpenOption.APPEND);
                                                Thread.sleep(50);
                                            }
                                        } catch (Exception e) {
                                            // closed
                                        }
                                    });
        }

        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join();
        }
    }

    @Test
    void reloadsWithinASecondOfEachSaveWhileAnotherFileInTheFolderKeepsChanging() throws Exception {
        Path script = dir.resolve("radio.groovy");
        Files.writeString(script, "// v0\n");
        LinkedBlockingQueue<Long> reloads = new LinkedBlockingQueue<>();
        try (Neighbour log = new Neighbour(dir.resolve("radio.log"));
                ScriptWatcher w =
                        new ScriptWatcher(
                                () -> reloads.add(System.nanoTime()), ScriptWatcher.QUIET)) {
            w.watch(script);
            w.start();
            Thread.sleep(1000);
            assertEquals(
                    List.of(),
                    new ArrayList<>(reloads),
                    "the neighbour's writes alone reload nothing");
            List<Long> delays = new ArrayList<>();
            for (int save = 1; save <= 4; save++) {
                long saved = System.nanoTime();
                Files.writeString(script, "// v" + save + "\n");
                Long at = reloads.poll(1, TimeUnit.SECONDS);
                assertTrue(at != null, "no reload within 1 s of save " + save);
                delays.add((at - saved) / 1_000_000);
                Thread.sleep(700);
                assertEquals(List.of(), new ArrayList<>(reloads), "one reload per save");
            }
            System.out.println("reload after each save, ms: " + delays);
        }
    }

    @Test
    void aSaveWrittenInABurstReloadsOnce() throws Exception {
        Path script = dir.resolve("radio.groovy");
        Files.writeString(script, "// v0\n");
        LinkedBlockingQueue<Long> reloads = new LinkedBlockingQueue<>();
        try (ScriptWatcher w =
                new ScriptWatcher(() -> reloads.add(System.nanoTime()), ScriptWatcher.QUIET)) {
            w.watch(script);
            w.start();
            // An editor's save: a write, a temp file renamed over the script, a second write.
            Files.writeString(script, "// half\n");
            Thread.sleep(100);
            Path temp = dir.resolve(".radio.groovy.swp");
            Files.writeString(temp, "// v1\n");
            Files.move(
                    temp,
                    script,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Thread.sleep(100);
            Files.writeString(script, "// v1, saved\n");
            assertTrue(reloads.poll(2, TimeUnit.SECONDS) != null, "the save reloads");
            Thread.sleep(1000);
            assertEquals(List.of(), new ArrayList<>(reloads), "once");
        }
    }

    @Test
    void watchesFilesInSeveralDirectories() throws Exception {
        Path script = dir.resolve("radio.groovy");
        Path lib = Files.createDirectories(dir.resolve("lib")).resolve("jingles.groovy");
        Files.writeString(script, "// v0\n");
        Files.writeString(lib, "// v0\n");
        Files.writeString(dir.resolve("lib/other.groovy"), "// v0\n");
        LinkedBlockingQueue<Long> reloads = new LinkedBlockingQueue<>();
        try (ScriptWatcher w =
                new ScriptWatcher(() -> reloads.add(System.nanoTime()), ScriptWatcher.QUIET)) {
            w.watch(script);
            w.watch(lib);
            w.start();
            Files.writeString(dir.resolve("lib/other.groovy"), "// v1\n");
            Thread.sleep(700);
            assertEquals(
                    List.of(),
                    new ArrayList<>(reloads),
                    "a file not watched, in a watched directory");
            Files.writeString(lib, "// v1\n");
            assertTrue(
                    reloads.poll(1, TimeUnit.SECONDS) != null, "an included file's save reloads");
        }
    }
}
