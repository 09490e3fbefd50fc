package org.groovecast.liquidsoap.prelude;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * {@code playlist.parse.cue.full}: a CUE sheet read as Liquidsoap reads it, a record of the sheet's
 * {@code catalog}, {@code performer}, {@code title}, its {@code REM} pairs (last first, as
 * Liquidsoap lists them) and its tracks, each with its indexes ({@code (number, {filename,
 * file_type, minutes, seconds, frames})}, the file the last {@code FILE} line named). A field the
 * sheet does not give is absent; a line that is none of these is skipped. {@code
 * playlist.parse.cue} (prelude.liq) turns the record into a playlist's tracks and metadata.
 */
final class CueSheets {
    private CueSheets() {}

    private static final Pattern FILE = Pattern.compile("^FILE (.+)$");
    private static final Pattern REM = Pattern.compile("^REM (\\S+) (.+)$");
    private static final Pattern TRACK = Pattern.compile("^TRACK (\\S+)\\s(\\S+)?$");
    private static final Pattern INDEX = Pattern.compile("^INDEX (\\d+) ([\\d:]+)");
    private static final Pattern TIMECODE = Pattern.compile("^(\\d+):(\\d+):(\\d+)");
    private static final Pattern URL = Pattern.compile("^https?://.*", Pattern.DOTALL);

    private static final List<String> TRACK_FIELDS =
            List.of("title", "performer", "pregap", "postgap", "rem", "isrc");
    private static final List<String> SHEET_FIELDS = List.of("catalog", "performer", "title");

    static void register(Library lib) {
        lib.function(
                "playlist.parse.get_file",
                "(?pwd : string?, string) -> string",
                "A playlist entry's path: relative to pwd when pwd is a URL, or when the file is there.",
                a -> file(a.isNull(0) ? null : a.string(0), a.string(1)));
        lib.function(
                "playlist.parse.cue.full",
                "(?pwd : string?, string) -> {catalog? : string, performer? : string, title? : string, "
                        + "rem : [string * string], tracks : [{position : int, track_type? : string, "
                        + "performer? : string, title? : string, album? : string, isrc? : string, "
                        + "postgap? : {minutes : int, seconds : int, frames : int}, "
                        + "pregap? : {minutes : int, seconds : int, frames : int}, "
                        + "indexes : [int * {filename? : string, file_type? : string, minutes : int, "
                        + "seconds : int, frames : int}]}]}",
                "A CUE sheet's fields, REM entries and tracks.",
                a -> parse(a.isNull(0) ? null : a.string(0), a.string(1)));
    }

    /** Liquidsoap's playlist path rule. */
    static String file(String pwd, String file) {
        if (pwd == null) return file;
        if (URL.matcher(pwd).matches() && !URL.matcher(file).matches()) return pwd + file;
        Path p = Path.of(pwd).resolve(file);
        return Files.exists(p) ? p.toString() : file;
    }

    private static Object parse(String pwd, String content) {
        List<String> lines = new ArrayList<>();
        for (String l : content.split("[\r\n]+")) if (!l.isBlank()) lines.add(l.strip());
        Map<String, Object> sheet = new LinkedHashMap<>();
        List<Object> rem = new ArrayList<>();
        List<Object> tracks = new ArrayList<>();
        Map<String, Object> file = null;
        int i = 0;
        while (i < lines.size()) {
            String s = lines.get(i++);
            Map<String, Object> f = fileLine(pwd, s);
            Tuple r = remLine(s);
            Map<String, Object> track = trackLine(s);
            if (f != null) {
                file = f;
            } else if (r != null) {
                rem.addFirst(r);
            } else if (track != null) {
                List<Object> indexes = new ArrayList<>();
                while (i < lines.size() && trackLine(lines.get(i)) == null) {
                    String t = lines.get(i++);
                    Tuple index = indexLine(t);
                    Map<String, Object> nf = fileLine(pwd, t);
                    if (index != null) {
                        Map<String, Object> at = new LinkedHashMap<>();
                        if (file != null) at.putAll(file);
                        at.putAll(org.groovecast.liquidsoap.eval.Values.fields(index.get(1)));
                        indexes.add(Tuple.of(index.get(0), Rec.record(at)));
                    } else if (nf != null) {
                        file = nf;
                    } else {
                        trackField(track, t);
                    }
                }
                track.put("indexes", Collections.unmodifiableList(indexes));
                tracks.add(Rec.record(track));
            } else {
                for (String name : SHEET_FIELDS) {
                    String v = labelled(name, s);
                    if (v != null) {
                        sheet.put(name, v);
                        break;
                    }
                }
            }
        }
        sheet.put("rem", Collections.unmodifiableList(rem));
        sheet.put("tracks", Collections.unmodifiableList(tracks));
        return Rec.record(sheet);
    }

    /** The first of TITLE, PERFORMER, PREGAP, POSTGAP, REM ALBUM, ISRC the line gives. */
    private static void trackField(Map<String, Object> track, String s) {
        for (String name : TRACK_FIELDS) {
            String v = labelled(name, s);
            if (v == null) continue;
            switch (name) {
                case "pregap", "postgap" -> {
                    Object t = timecode(v);
                    if (t != null) track.put(name, t);
                }
                case "rem" -> {
                    Tuple r = remLine("REM " + v);
                    if (r != null && r.get(0).equals("album")) track.put("album", r.get(1));
                }
                default -> track.put(name, v);
            }
            return;
        }
    }

    /** {@code LABEL value} (the label in capitals), the value unquoted. */
    private static String labelled(String name, String s) {
        String label = name.toUpperCase(Locale.ROOT) + " ";
        if (!s.startsWith(label) || s.length() == label.length()) return null;
        return StringFunctions.unquote(s.substring(label.length()));
    }

    /**
     * {@code FILE "name" TYPE} or {@code FILE name TYPE}: the name up to the last quote (or the
     * last space), the type after it in lower case, absent when empty.
     */
    private static Map<String, Object> fileLine(String pwd, String s) {
        Matcher m = FILE.matcher(s);
        if (!m.matches()) return null;
        String rest = m.group(1);
        int cut;
        String name;
        if (rest.startsWith("\"")) {
            cut = rest.lastIndexOf('"');
            if (cut <= 0) return null;
            name = StringFunctions.unquote("\"" + rest.substring(1, cut) + "\"");
        } else {
            cut = rest.lastIndexOf(' ');
            if (cut < 0) return null;
            name = rest.substring(0, cut);
        }
        String type = rest.substring(cut + 1).strip();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("filename", file(pwd, name));
        if (!type.isEmpty()) f.put("file_type", type.toLowerCase(Locale.ROOT));
        return f;
    }

    private static Tuple remLine(String s) {
        Matcher m = REM.matcher(s);
        if (!m.matches()) return null;
        return Tuple.of(m.group(1).toLowerCase(Locale.ROOT), StringFunctions.unquote(m.group(2)));
    }

    private static Map<String, Object> trackLine(String s) {
        Matcher m = TRACK.matcher(s);
        if (!m.matches() || m.group(2) == null) return null;
        Map<String, Object> t = new LinkedHashMap<>();
        try {
            t.put("position", Long.parseLong(m.group(1)));
        } catch (NumberFormatException e) {
            return null;
        }
        t.put("track_type", m.group(2).toLowerCase(Locale.ROOT));
        return t;
    }

    private static Tuple indexLine(String s) {
        Matcher m = INDEX.matcher(s);
        if (!m.find()) return null;
        Object t = timecode(m.group(2));
        return t == null ? null : Tuple.of(Long.parseLong(m.group(1)), t);
    }

    private static Object timecode(String s) {
        Matcher m = TIMECODE.matcher(s.strip());
        if (!m.find()) return null;
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("minutes", Long.parseLong(m.group(1)));
        t.put("seconds", Long.parseLong(m.group(2)));
        t.put("frames", Long.parseLong(m.group(3)));
        return Rec.record(t);
    }
}
