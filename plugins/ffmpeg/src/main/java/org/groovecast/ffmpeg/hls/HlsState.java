package org.groovecast.ffmpeg.hls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The playlists' state an output saves at {@code persistAt} when it stops and reads back when it
 * starts again, so that the media sequence goes on across a restart: a line per rendition (its
 * numbers) followed by a line per segment in its window and per segment still on disk after it.
 * Fields are separated by tabs, which segment names never hold (see {@link HlsNames}).
 */
final class HlsState {
    private static final String HEADER = "groovecast-hls-state\t1";

    private HlsState() {}

    /** One rendition's playlist as saved. */
    record Saved(
            int targetDuration,
            int version,
            long nextSequence,
            long discontinuitySequence,
            List<HlsPlaylist.Segment> window,
            List<HlsPlaylist.Segment> retired) {}

    /** Writes {@code playlists} (by rendition name) to {@code file}, whole or not at all. */
    static void write(Path file, Map<String, Saved> playlists) throws IOException {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        playlists.forEach(
                (name, p) -> {
                    b.append("rendition\t")
                            .append(name)
                            .append('\t')
                            .append(p.targetDuration())
                            .append('\t')
                            .append(p.version())
                            .append('\t')
                            .append(p.nextSequence())
                            .append('\t')
                            .append(p.discontinuitySequence())
                            .append('\n');
                    for (HlsPlaylist.Segment s : p.window()) segment(b, "window", s);
                    for (HlsPlaylist.Segment s : p.retired()) segment(b, "retired", s);
                });
        Files.createDirectories(file.toAbsolutePath().getParent());
        Hls.writeAtomically(file, b.toString());
    }

    private static void segment(StringBuilder b, String kind, HlsPlaylist.Segment s) {
        b.append(kind)
                .append('\t')
                .append(s.sequence())
                .append('\t')
                .append(String.format(Locale.ROOT, "%.6f", s.seconds()))
                .append('\t')
                .append(s.discontinuity() ? 1 : 0)
                .append('\t')
                .append(s.file())
                .append('\t')
                .append(s.map() == null ? "" : s.map())
                .append('\n');
    }

    /**
     * Reads a state {@link #write} wrote; a file in any other shape (another program's, a truncated
     * one) is an {@link IOException} saying where it stopped making sense.
     */
    static Map<String, Saved> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty() || !lines.getFirst().equals(HEADER))
            throw new IOException("not a state this version wrote");
        Map<String, Saved> out = new LinkedHashMap<>();
        String name = null;
        String[] numbers = null;
        List<HlsPlaylist.Segment> window = new ArrayList<>();
        List<HlsPlaylist.Segment> retired = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isEmpty()) continue;
            String[] f = line.split("\t", -1);
            try {
                switch (f[0]) {
                    case "rendition" -> {
                        if (name != null) out.put(name, saved(numbers, window, retired));
                        if (f.length != 6) throw new IOException("line " + (i + 1));
                        name = f[1];
                        numbers = f;
                        window = new ArrayList<>();
                        retired = new ArrayList<>();
                    }
                    case "window", "retired" -> {
                        if (name == null || f.length != 6) throw new IOException("line " + (i + 1));
                        HlsPlaylist.Segment s =
                                new HlsPlaylist.Segment(
                                        Long.parseLong(f[1]),
                                        f[4],
                                        Double.parseDouble(f[2]),
                                        f[3].equals("1"),
                                        f[5].isEmpty() ? null : f[5]);
                        (f[0].equals("window") ? window : retired).add(s);
                    }
                    default -> throw new IOException("line " + (i + 1));
                }
            } catch (NumberFormatException e) {
                throw new IOException("line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        if (name != null) out.put(name, saved(numbers, window, retired));
        return out;
    }

    private static Saved saved(
            String[] f, List<HlsPlaylist.Segment> window, List<HlsPlaylist.Segment> retired)
            throws IOException {
        try {
            return new Saved(
                    Integer.parseInt(f[2]),
                    Integer.parseInt(f[3]),
                    Long.parseLong(f[4]),
                    Long.parseLong(f[5]),
                    List.copyOf(window),
                    List.copyOf(retired));
        } catch (NumberFormatException e) {
            throw new IOException("rendition " + f[1] + ": " + e.getMessage(), e);
        }
    }
}
