package org.groovecast.ffmpeg.playlist;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * Playlist files as anyone may write them: {@link PlaylistFiles#read} on any bytes saved as an .m3u
 * or a .pls. It reads them or says why not with an IOException (the playlist's own error, which the
 * operator reports); never anything else, and never more entries than the file has lines. Seeds:
 * extended and plain m3u, UTF-8 with and without a BOM, Latin-1, CRLF, URLs and annotate: entries,
 * relative paths with .., pls with and without its header, odd keys.
 */
class PlaylistFilesFuzzTest {
    private static Path dir;

    @BeforeAll
    static void setUp() throws IOException {
        // in memory where the machine has it: a million inputs are a million files written and read
        Path shm = Path.of("/dev/shm");
        dir =
                Files.isDirectory(shm) && Files.isWritable(shm)
                        ? Files.createTempDirectory(shm, "playlist-fuzz")
                        : Files.createTempDirectory("playlist-fuzz");
    }

    @AfterAll
    static void tearDown() throws IOException {
        for (String name : List.of("list.m3u", "list.pls")) Files.deleteIfExists(dir.resolve(name));
        Files.delete(dir);
    }

    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void m3u(byte[] content) throws IOException {
        read("list.m3u", content);
    }

    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void pls(byte[] content) throws IOException {
        read("list.pls", content);
    }

    private static void read(String name, byte[] content) throws IOException {
        Path file = Files.write(dir.resolve(name), content);
        List<?> entries;
        try {
            entries = PlaylistFiles.read(file);
        } catch (IOException e) {
            return; // the playlist's own error: unreadable, with the reason
        }
        long lines = 1;
        for (byte b : content) if (b == '\n' || b == '\r') lines++;
        assertTrue(entries.size() <= lines, entries.size() + " entries from " + lines + " lines");
        for (Object e : entries) assertNotNull(e);
    }
}
