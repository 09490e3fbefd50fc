import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The HLS output's directory: how many files it holds, and the media sequence of its rendition playlist. */
final class HlsDir {
    private final Path dir;
    private final Path playlist;

    HlsDir(Path dir, String rendition) {
        this.dir = dir;
        this.playlist = dir.resolve(rendition + ".m3u8");
    }

    int files() {
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.count();
        } catch (IOException e) {
            return -1;
        }
    }

    /** #EXT-X-MEDIA-SEQUENCE, or -1 while there is no playlist. */
    long sequence() {
        try {
            for (String line : Files.readAllLines(playlist)) {
                if (line.startsWith("#EXT-X-MEDIA-SEQUENCE:")) return Long.parseLong(line.substring(22).trim());
            }
        } catch (IOException | NumberFormatException e) {
            // written atomically, but it may not exist yet
        }
        return -1;
    }
}
