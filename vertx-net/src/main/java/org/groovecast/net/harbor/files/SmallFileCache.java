package org.groovecast.net.harbor.files;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.groovecast.net.harbor.http.MimeTypes;

/**
 * What a static directory found for each path it served, asked of the file system again at most
 * once a second, with the bytes of its small files in memory. Without it each request resolved the
 * path's links, stat'ed the file twice and opened, sendfile'd and closed it: 0.47x nginx's rate for
 * a 1 KiB file at 64 keep-alive connections (bench/README.md, HarborHttp), where a kept file is one
 * map lookup and one write of its head and a shared buffer. A file changed on disk is served anew
 * within a second, as nginx's {@code open_file_cache_valid} does it; a path with no file is never
 * kept (so made-up paths cannot fill the map) and is looked for on every request.
 *
 * <p>Bodies are direct buffers over JDK {@link ByteBuffer}s that Netty never frees: the cache keeps
 * the reference count above zero, so a reply's {@link StaticFile#bodyForReply duplicate} stays good
 * while a newer version replaces the entry on another event loop, and the memory goes back with the
 * last reference (the garbage collector's cleaner), with no release to race.
 */
public final class SmallFileCache {
    /** Files up to this size are kept in memory; larger ones go by sendfile. */
    public static final int LARGEST = 64 * 1024;

    /** All kept bytes of one directory together at most. */
    static final long BUDGET = 16L << 20;

    /** Paths remembered at most (a directory of many files is still served, by sendfile). */
    static final int MOST = 4096;

    static final long VALID_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ConcurrentHashMap<String, StaticFile> entries = new ConcurrentHashMap<>();
    private final AtomicLong held = new AtomicLong();

    /** What was found for {@code relative} under the same rule within the last second, or null. */
    StaticFile fresh(String relative, boolean followSymlinks, long now) {
        StaticFile f = entries.get(relative);
        return f != null
                        && f.followSymlinks() == followSymlinks
                        && now - f.checkedAt() < VALID_NANOS
                ? f
                : null;
    }

    /** {@code relative} has no file (now): nothing is kept for it. */
    void forget(String relative) {
        StaticFile gone = entries.remove(relative);
        if (gone != null && gone.body() != null) held.addAndGet(-gone.size());
    }

    /**
     * The file just found at {@code file} for {@code relative}, kept: the same bytes as before when
     * its size and modification time are unchanged, else read again if small. Null if it cannot be
     * read now.
     */
    public StaticFile refresh(String relative, Path file, boolean followSymlinks, long now) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            forget(relative);
            return null;
        }
        long modified = a.lastModifiedTime().toMillis();
        StaticFile old = entries.get(relative);
        if (old != null
                && old.path().equals(file)
                && old.size() == a.size()
                && old.modified() == modified) {
            StaticFile again =
                    new StaticFile(
                            file,
                            old.type(),
                            old.size(),
                            modified,
                            old.body(),
                            now,
                            followSymlinks);
            entries.put(relative, again);
            return again;
        }
        ByteBuf body = null;
        if (a.size() <= LARGEST
                && (old != null || entries.size() < MOST)
                && held.get() + a.size() <= BUDGET) {
            body = read(file, a.size());
        }
        StaticFile f =
                new StaticFile(
                        file, MimeTypes.of(file), a.size(), modified, body, now, followSymlinks);
        if (body != null) held.addAndGet(a.size());
        if (old != null || entries.size() < MOST) {
            StaticFile replaced = entries.put(relative, f);
            if (replaced != null && replaced.body() != null) held.addAndGet(-replaced.size());
        }
        return f;
    }

    /** The file's bytes, or null if it is not (or no longer) the size it said. */
    private static ByteBuf read(Path file, long size) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return null;
        }
        if (bytes.length != size) return null; // being written: served by sendfile this time
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        return Unpooled.wrappedBuffer(direct);
    }

    /** Bytes kept now, for tests. */
    long held() {
        return held.get();
    }
}
