package org.groovecast.net.harbor.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a static directory keeps of its files, and when it asks the file system again. */
class SmallFileCacheTest {
    @TempDir Path dir;

    private final SmallFileCache cache = new SmallFileCache();

    private static String text(StaticFile f) {
        ByteBuf b = f.bodyForReply();
        try {
            return b.toString(StandardCharsets.UTF_8);
        } finally {
            b.release();
        }
    }

    @Test
    void aFileFoundIsKeptForASecondThenAskedForAgainAndReadAnewOnlyWhenItChanged()
            throws Exception {
        Path f = Files.writeString(dir.resolve("a.txt"), "one");
        long t = 1_000_000_000L;
        StaticFile first = cache.refresh("a.txt", f, false, t);
        assertEquals("one", text(first));
        assertEquals("text/plain; charset=utf-8", first.type());
        assertSame(first, cache.fresh("a.txt", false, t + SmallFileCache.VALID_NANOS - 1));
        assertNull(cache.fresh("a.txt", true, t), "found under another symlink rule: ask again");
        assertNull(cache.fresh("a.txt", false, t + SmallFileCache.VALID_NANOS), "a second on");

        StaticFile same = cache.refresh("a.txt", f, false, t + SmallFileCache.VALID_NANOS);
        assertSame(first.body(), same.body(), "unchanged on disk: the same bytes, not read again");

        Files.writeString(f, "two!");
        Files.setLastModifiedTime(f, FileTime.fromMillis(first.modified() + 5_000));
        StaticFile changed = cache.refresh("a.txt", f, false, t + 2 * SmallFileCache.VALID_NANOS);
        assertEquals("two!", text(changed));
        assertEquals(4, cache.held());
        assertEquals(1, first.body().refCnt(), "a replaced body stays good for replies in flight");
    }

    @Test
    void aLargeFileIsFoundButNotKeptInMemoryAndAGoneOneIsForgotten() throws Exception {
        Path big = Files.write(dir.resolve("big.bin"), new byte[SmallFileCache.LARGEST + 1]);
        StaticFile f = cache.refresh("big.bin", big, false, 0);
        assertNotNull(f);
        assertNull(f.body());
        assertEquals(SmallFileCache.LARGEST + 1, f.size());
        assertEquals(0, cache.held());

        Path small = Files.writeString(dir.resolve("s.txt"), "x");
        cache.refresh("s.txt", small, false, 0);
        assertEquals(1, cache.held());
        cache.forget("s.txt");
        assertEquals(0, cache.held());
        assertNull(cache.fresh("s.txt", false, 0));
        Files.delete(small);
        assertNull(cache.refresh("s.txt", small, false, 0), "no longer there");
    }

    @Test
    void staticFilesLookUpThroughTheCacheAndNeverKeepAPathWithNoFile() throws Exception {
        Path root = Files.createDirectories(dir.resolve("www"));
        Files.writeString(root.resolve("page.html"), "<p>hi</p>");
        StaticFiles files = new StaticFiles(root);

        StaticFile f = files.lookup("page.html", false);
        assertEquals(root.resolve("page.html").toRealPath(), f.path());
        assertSame(f, files.lookup("page.html", false), "within the second: no file system call");
        assertNull(files.lookup("missing.html", false));
        Files.writeString(root.resolve("missing.html"), "now here");
        assertNotNull(files.lookup("missing.html", false), "a path with no file was not kept");
    }
}
