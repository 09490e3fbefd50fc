package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.bytedeco.javacpp.BytePointer;

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

    /**
     * The RFC 6381 string of an H.264 stream ({@code avc1.42c01f} for constrained baseline 3.1),
     * read from the sequence parameter set in an Annex B keyframe; null if there is none.
     */
    static String avc(BytePointer data, int size) {
        for (int i = 0; i + 6 < size; i++) {
            if (data.get(i) == 0 && data.get(i + 1) == 0 && data.get(i + 2) == 1 && (data.get(i + 3) & 0x1f) == 7) {
                return String.format("avc1.%02x%02x%02x", data.get(i + 4) & 0xff, data.get(i + 5) & 0xff,
                        data.get(i + 6) & 0xff);
            }
        }
        return null;
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
