package org.groovecast.ffmpeg.playlist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads what a playlist names: a directory (recursively), an .m3u/.m3u8 or .pls file, or one media
 * file.
 */
final class PlaylistFiles {
    private PlaylistFiles() {}

    static List<Request> read(Path where) throws IOException {
        if (Files.isDirectory(where)) {
            try (Stream<Path> walk = Files.walk(where)) {
                return walk.filter(Files::isRegularFile)
                        .filter(p -> !p.getFileName().toString().startsWith("."))
                        .map(Path::toString)
                        .sorted()
                        .map(Request::of)
                        .toList();
            }
        }
        PlaylistParser.Format format = PlaylistParser.Format.of(where.getFileName().toString());
        if (format != null) {
            Path dir = where.toAbsolutePath().getParent();
            return PlaylistParser.parse(Files.readAllBytes(where), format, dir);
        }
        if (!Files.exists(where)) throw new IOException("no such file or directory");
        return List.of(Request.of(where.toString()));
    }
}
