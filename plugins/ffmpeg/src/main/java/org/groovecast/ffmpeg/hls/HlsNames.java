package org.groovecast.ffmpeg.hls;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an output's segment and init files are called: {@code name_<sequence>.ts} and {@code
 * name_init_<sequence>.mp4}, or what the script's {@code segmentName} function answers for them.
 *
 * <p>The function is given what Liquidsoap 2.4 gives its {@code segment_name}: {@code position}
 * (the segment's media sequence number plus one, so the first is 1; for an init section the number
 * of the segment before the first it serves), {@code extname} ({@code ts}, {@code m4s}, {@code aac}
 * or {@code mp3} for packed audio, {@code mp4} for an init section), {@code duration} (seconds) and
 * {@code ticks} (samples) of the finished segment (0 for an init section), {@code streamName} (the
 * rendition). As in Liquidsoap, a segment is named when it is finished, so it is written under a
 * temporary name first (in {@code tempDir} if one is given, else in the directory) and moved to its
 * name then: players never see half a segment.
 */
final class HlsNames {
    private static final Logger log = LoggerFactory.getLogger(HlsNames.class);

    private final Path dir;
    private final UserFunction function;

    /** Where segments are written before they are named: the script's temp dir, or null. */
    private Path temp;

    private boolean complained;

    /**
     * @param function the script's {@code segmentName}, or null for the default names
     * @param temp where segments are written before they get their names, or null for {@code dir}
     */
    HlsNames(Path dir, UserFunction function, Path temp) {
        this.dir = dir;
        this.function = function;
        this.temp = temp;
    }

    static HlsNames standard(Path dir) {
        return new HlsNames(dir, null, null);
    }

    /**
     * Creates the temporary directory if there is one and it is missing. One on another file system
     * than the directory is not used: naming a segment would copy it, on the clock, instead of
     * renaming it (Docker volumes, a tmpfs /tmp); segments are then written in the directory under
     * a hidden temporary name.
     */
    void prepare() throws IOException {
        if (temp == null) return;
        Files.createDirectories(temp);
        Files.createDirectories(dir);
        if (!Files.getFileStore(temp).equals(Files.getFileStore(dir))) {
            log.warn(
                    "output.file.hls {}: temp dir {} is on another file system, where naming a"
                            + " segment would copy it on the clock; segments are written in {}"
                            + " under a hidden temporary name instead",
                    dir,
                    temp,
                    dir);
            temp = null;
        }
    }

    /** Whether a segment is written under a temporary name and moved to its own when finished. */
    boolean deferred() {
        return function != null || temp != null;
    }

    /** Where segment {@code sequence} is written before it is finished, when {@link #deferred}. */
    Path temporary(String stream, long sequence, String extension) {
        return (temp != null ? temp : dir)
                .resolve("." + stream + "_" + sequence + "." + extension + ".part");
    }

    /** The name of finished segment {@code sequence} of {@code seconds} ({@code samples}). */
    String segment(String stream, long sequence, String extension, double seconds, long samples) {
        String standard = stream + "_" + sequence + "." + extension;
        return ask(standard, stream, sequence + 1, extension, seconds, samples);
    }

    /** The name of the init section of a run whose first segment is {@code firstSequence}. */
    String init(String stream, long firstSequence) {
        String standard = stream + "_init_" + firstSequence + ".mp4";
        return ask(standard, stream, firstSequence, "mp4", 0.0, 0);
    }

    private String ask(
            String standard,
            String stream,
            long position,
            String extension,
            double seconds,
            long samples) {
        if (function == null) return standard;
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("position", position);
        meta.put("extname", extension);
        meta.put("duration", seconds);
        meta.put("ticks", samples);
        meta.put("streamName", stream);
        Object answer = function.callOr(null, meta);
        String name = answer == null ? null : answer.toString();
        if (isFileName(name)) return name;
        if (!complained) {
            complained = true;
            log.error(
                    "output.file.hls {}: segmentName answered {} for {}, which is not a file name"
                            + " in the directory; such segments keep the standard name ({})",
                    dir,
                    name == null ? "nothing" : '"' + name + '"',
                    standard,
                    standard);
        }
        return standard;
    }

    /** A plain name in the directory: no separator, no control character, not . or .. . */
    static boolean isFileName(String name) {
        if (name == null || name.isEmpty() || name.equals(".") || name.equals("..")) return false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f) return false;
        }
        return true;
    }

    /**
     * Moves a finished segment from its temporary name to {@code name} in the directory: an atomic
     * rename ({@link #prepare} keeps the temporary directory on the directory's file system; the
     * copy is for one moved under a running station).
     */
    Path publish(Path written, String name) throws IOException {
        Path target = dir.resolve(name);
        try {
            return Files.move(
                    written,
                    target,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            return Files.move(written, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
