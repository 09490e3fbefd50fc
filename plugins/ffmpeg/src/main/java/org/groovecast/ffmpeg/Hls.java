package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** HLS file conventions shared by the output and its variants. */
final class Hls {
    private Hls() {
    }

    /** Writes {@code text} to a temporary file beside {@code target}, then renames it over: readers never see half a playlist. */
    static void writeAtomically(Path target, String text) throws IOException {
        Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The RFC 6381 codec string of an audio codec, for the master playlist. */
    static String codecs(String codecName) {
        return switch (codecName) {
            case "libmp3lame", "mp3" -> "mp4a.40.34";
            case "ac3" -> "ac-3";
            default -> "mp4a.40.2";
        };
    }
}
