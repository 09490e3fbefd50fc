package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Liq;
import org.groovecast.liquidsoap.eval.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.watch: the handler runs when the file is written, until unwatch(). */
class FileWatchTest {
    private static boolean appears(Path f) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!Files.exists(f) && System.nanoTime() < deadline) Thread.sleep(20);
        return Files.exists(f);
    }

    @Test
    void theHandlerRunsOnEachWriteUntilUnwatched(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("watched.txt");
        Path seen = dir.resolve("seen");
        Files.writeString(f, "a");
        Object w =
                new Liq()
                        .eval(
                                "file.watch(\""
                                        + f
                                        + "\", fun () -> file.write(data=\"x\", \""
                                        + seen
                                        + "\"))");
        Files.writeString(dir.resolve("other.txt"), "not this one");
        Thread.sleep(200);
        assertFalse(Files.exists(seen), "another file's change ran the handler");
        Files.writeString(f, "b");
        assertTrue(appears(seen), "the handler did not run");
        ((Fn) Values.base(Values.fields(w).get("unwatch"))).call();
        Thread.sleep(100);
        Files.delete(seen);
        Files.writeString(f, "c");
        Thread.sleep(300);
        assertFalse(Files.exists(seen), "the handler ran after unwatch()");
        Registered.withTypes("file.watch");
    }
}
