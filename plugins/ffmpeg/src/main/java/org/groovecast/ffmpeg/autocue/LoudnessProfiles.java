package org.groovecast.ffmpeg.autocue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.groovecast.api.AudioFormat;

/**
 * The loudness profiles of the files played lately, by path, modification time and size: a file
 * comes back in a rotation, and its analysis (a full decode) is then free. Shared by the process's
 * stations, as the files are. A request for a file being measured waits for that measurement rather
 * than decoding it again.
 */
final class LoudnessProfiles {
    /** About 2 MB for three-minute tracks. */
    static final int CAPACITY = 1024;

    private static final LoudnessProfiles SHARED = new LoudnessProfiles(CAPACITY);

    private record Key(Path path, long modified, long size, AudioFormat format) {}

    private final Map<Key, CompletableFuture<LoudnessProfile>> cache;

    LoudnessProfiles(int capacity) {
        cache =
                new LinkedHashMap<>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(
                            Map.Entry<Key, CompletableFuture<LoudnessProfile>> eldest) {
                        return size() > capacity;
                    }
                };
    }

    static LoudnessProfiles shared() {
        return SHARED;
    }

    /** {@code file}'s profile, measured now (blocking: a full decode) unless known. */
    LoudnessProfile of(String file, AudioFormat format) throws IOException {
        Path path = Path.of(file).toAbsolutePath();
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
        Key key = new Key(path, a.lastModifiedTime().toMillis(), a.size(), format);
        CompletableFuture<LoudnessProfile> mine = new CompletableFuture<>();
        CompletableFuture<LoudnessProfile> known;
        synchronized (cache) {
            known = cache.putIfAbsent(key, mine);
        }
        if (known != null) return await(known);
        try {
            mine.complete(LoudnessProfile.measure(path.toString(), format));
        } catch (IOException | RuntimeException e) {
            synchronized (cache) {
                cache.remove(key, mine); // a file that failed may be fixed: measure it again then
            }
            mine.completeExceptionally(e);
        }
        return await(mine);
    }

    private static LoudnessProfile await(CompletableFuture<LoudnessProfile> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while measuring loudness", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            throw new IOException(String.valueOf(e.getCause().getMessage()), e.getCause());
        }
    }

    int size() {
        synchronized (cache) {
            return cache.size();
        }
    }
}
