package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HlsNamesTest {
    @TempDir Path dir;

    @Test
    void aTempDirOnTheSameFileSystemIsWhereSegmentsAreWritten() throws IOException {
        Path temp = dir.resolve("tmp");
        HlsNames names = new HlsNames(dir.resolve("hls"), null, temp);
        names.prepare();
        assertEquals(temp, names.temporary("aac", 3, "ts").getParent());
    }

    /** Naming a segment must be a rename: a copy of ~100 KB per segment would run on the clock. */
    @Test
    void aTempDirOnAnotherFileSystemIsNotUsed() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeFalse(
                !Files.isDirectory(shm) || Files.getFileStore(shm).equals(Files.getFileStore(dir)),
                "needs /dev/shm on a file system of its own");
        Path temp = Files.createTempDirectory(shm, "hls-temp");
        try {
            HlsNames names = new HlsNames(dir.resolve("hls"), null, temp);
            names.prepare();
            Path part = names.temporary("aac", 3, "ts");
            assertEquals(dir.resolve("hls"), part.getParent());
            assertEquals(".aac_3.ts.part", part.getFileName().toString());
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
