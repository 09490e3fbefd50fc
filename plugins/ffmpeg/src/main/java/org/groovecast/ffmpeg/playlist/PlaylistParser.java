package org.groovecast.ffmpeg.playlist;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.groovecast.api.Metadata;

/**
 * The entries of an .m3u, .m3u8 or .pls playlist, each with the metadata the playlist gives it.
 * Pure: bytes in, requests out, nothing read or logged, and no input makes it throw.
 *
 * <p>Text: a byte-order mark says the encoding (and is not part of the first line). Without one, an
 * .m3u8 is UTF-8 (malformed bytes become U+FFFD); an .m3u or .pls is UTF-8 when it is valid UTF-8,
 * else Windows-1252, what many tools write (a superset of Latin-1 for printable text).
 *
 * <p>Metadata, as Liquidsoap's playlist parser gives it: {@code #EXTINF:duration,Artist - Title}
 * gives the next entry {@code artist} and {@code title} (split at the first {@code " - "}; text
 * without one is the title) and {@code extinf_duration}; attributes before the comma ({@code
 * #EXTINF:-1 tvg-name="News" group-title="TV",News 24}) become metadata of their own name. In a
 * .pls, {@code TitleN=} does the same for {@code FileN=}. These are request annotations: they win
 * over the file's own tags, and an {@code annotate:} prefix an entry carries wins over them.
 */
final class PlaylistParser {
    /** The playlist formats, by file name. */
    enum Format {
        M3U,
        M3U8,
        PLS;

        /** The format a file name's extension says, or null for none of them. */
        static Format of(String fileName) {
            String name = fileName.toLowerCase(Locale.ROOT);
            if (name.endsWith(".m3u8")) return M3U8;
            if (name.endsWith(".m3u")) return M3U;
            if (name.endsWith(".pls")) return PLS;
            return null;
        }
    }

    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
    private static final String EXTINF = "#EXTINF:";

    private PlaylistParser() {}

    /**
     * The entries of a playlist's bytes, as written, each carrying {@code baseDir} (the playlist's
     * directory) against which a relative path is resolved when it plays.
     */
    static List<Request> parse(byte[] content, Format format, Path baseDir) {
        String text = decode(content, format == Format.M3U8);
        return format == Format.PLS ? pls(text, baseDir) : m3u(text, baseDir);
    }

    /** The text of a playlist file, by its byte-order mark, else as the class comment says. */
    static String decode(byte[] b, boolean utf8) {
        if (b.length >= 3
                && (b[0] & 0xff) == 0xEF
                && (b[1] & 0xff) == 0xBB
                && (b[2] & 0xff) == 0xBF) {
            return new String(b, 3, b.length - 3, StandardCharsets.UTF_8);
        }
        if (b.length >= 2 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xFE) {
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16LE);
        }
        if (b.length >= 2 && (b[0] & 0xff) == 0xFE && (b[1] & 0xff) == 0xFF) {
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16BE);
        }
        if (utf8) return new String(b, StandardCharsets.UTF_8);
        try {
            CharBuffer chars =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(b));
            return chars.toString();
        } catch (CharacterCodingException notUtf8) {
            return new String(b, WINDOWS_1252);
        }
    }

    private static List<Request> m3u(String text, Path baseDir) {
        List<Request> out = new ArrayList<>();
        Map<String, String> pending = null;
        for (String line : text.split("\r\n|\r|\n")) {
            String l = line.strip();
            if (l.isEmpty()) continue;
            if (l.regionMatches(true, 0, EXTINF, 0, EXTINF.length())) {
                pending = extinf(l.substring(EXTINF.length()));
                continue;
            }
            if (l.startsWith("#")) continue;
            out.add(entry(l, pending, baseDir));
            pending = null;
        }
        return out;
    }

    private static List<Request> pls(String text, Path baseDir) {
        Map<String, String> files = new LinkedHashMap<>();
        Map<String, String> titles = new TreeMap<>();
        for (String line : text.split("\r\n|\r|\n")) {
            String l = line.strip();
            int eq = l.indexOf('=');
            if (eq < 0) continue;
            String key = l.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = l.substring(eq + 1).strip();
            if (key.startsWith("file") && !value.isEmpty()) files.put(key.substring(4), value);
            else if (key.startsWith("title") && !value.isEmpty())
                titles.put(key.substring(5), value);
        }
        List<Request> out = new ArrayList<>();
        files.forEach(
                (n, file) -> {
                    String title = titles.get(n);
                    Map<String, String> meta = null;
                    if (title != null) {
                        meta = new LinkedHashMap<>();
                        artistAndTitle(title, meta);
                    }
                    out.add(entry(file, meta, baseDir));
                });
        return out;
    }

    /**
     * What follows {@code #EXTINF:}: a duration, attributes up to the first comma outside quotes,
     * then the display text.
     */
    private static Map<String, String> extinf(String s) {
        Map<String, String> meta = new LinkedHashMap<>();
        int i = 0;
        int n = s.length();
        int start = i;
        if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) i++;
        while (i < n && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) i++;
        String duration = s.substring(start, i);
        if (!duration.isEmpty()
                && !duration.startsWith("-")
                && !duration.equals("+")
                && !duration.equals(".")) {
            meta.put(
                    "extinf_duration", duration.startsWith("+") ? duration.substring(1) : duration);
        }
        // Attributes, key="value" or key=value, separated by spaces, until the comma.
        while (i < n) {
            while (i < n && Character.isWhitespace(s.charAt(i))) i++;
            if (i >= n || s.charAt(i) == ',') break;
            int keyStart = i;
            while (i < n
                    && s.charAt(i) != '='
                    && s.charAt(i) != ','
                    && !Character.isWhitespace(s.charAt(i))) i++;
            String key = s.substring(keyStart, i);
            if (i >= n || s.charAt(i) != '=') continue; // a bare word: not an attribute
            i++;
            String value;
            if (i < n && s.charAt(i) == '"') {
                int close = s.indexOf('"', i + 1);
                if (close < 0) close = n;
                value = s.substring(i + 1, close);
                i = Math.min(n, close + 1);
            } else {
                int valueStart = i;
                while (i < n && s.charAt(i) != ',' && !Character.isWhitespace(s.charAt(i))) i++;
                value = s.substring(valueStart, i);
            }
            if (!key.isEmpty()) meta.put(key, value);
        }
        if (i < n && s.charAt(i) == ',') artistAndTitle(s.substring(i + 1), meta);
        return meta;
    }

    /**
     * {@code Artist - Title} as artist and title; text without {@code " - "} as the title alone.
     */
    private static void artistAndTitle(String text, Map<String, String> into) {
        String t = text.strip();
        if (t.isEmpty()) return;
        int dash = t.indexOf(" - ");
        if (dash > 0) {
            String artist = t.substring(0, dash).strip();
            String title = t.substring(dash + 3).strip();
            if (!artist.isEmpty()) into.put("artist", artist);
            if (!title.isEmpty()) into.put("title", title);
        } else {
            into.put("title", t);
        }
    }

    /**
     * An entry as written, with the playlist's metadata for it and the playlist's directory: its
     * prefixes and protocols ({@code annotate:}, {@code media:}), and relative paths, are the
     * station's to resolve when it is played. An {@code annotate:} prefix wins over the playlist's
     * metadata.
     */
    private static Request entry(String line, Map<String, String> meta, Path baseDir) {
        return new Request(line, meta == null ? Metadata.EMPTY : Metadata.of(meta), baseDir, 0);
    }
}
