package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Reads what a playlist names: a directory (recursively), an .m3u/.m3u8 or .pls file, or one media file. */
final class PlaylistFiles {
    private PlaylistFiles() {
    }

    static List<String> read(Path where) throws IOException {
        if (Files.isDirectory(where)) {
            try (Stream<Path> walk = Files.walk(where)) {
                return walk.filter(Files::isRegularFile)
                        .filter(p -> !p.getFileName().toString().startsWith("."))
                        .map(Path::toString).sorted().toList();
            }
        }
        String name = where.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".m3u") || name.endsWith(".m3u8")) return m3u(where);
        if (name.endsWith(".pls")) return pls(where);
        if (!Files.exists(where)) throw new IOException("no such file or directory");
        return List.of(where.toString());
    }

    private static List<String> m3u(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) continue;
            out.add(resolve(file, l));
        }
        return out;
    }

    private static List<String> pls(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String l = line.strip();
            int eq = l.indexOf('=');
            if (eq > 4 && l.regionMatches(true, 0, "File", 0, 4)) out.add(resolve(file, l.substring(eq + 1).strip()));
        }
        return out;
    }

    /** Entries are relative to the playlist file unless absolute or a URL (or annotated). */
    private static String resolve(Path playlist, String entry) {
        if (entry.startsWith("/") || entry.contains("://") || entry.startsWith("annotate:")) return entry;
        Path dir = playlist.toAbsolutePath().getParent();
        try {
            return dir == null ? entry : dir.resolve(entry).normalize().toString();
        } catch (InvalidPathException notAPath) {
            return entry; // a NUL in it: not a file; opening it fails later, as for any bad entry
        }
    }
}
