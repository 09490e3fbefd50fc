package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Format;
import org.groovecast.liquidsoap.eval.Show;
import org.groovecast.liquidsoap.eval.Values;

/**
 * Liquidsoap's encoders as the engine's: {@code %mp3(bitrate=128)} is {@code mp3(bitrate: 128)},
 * {@code %fdkaac} is {@code aac}, {@code %ffmpeg(format="mpegts", %audio(codec="aac", b="64k"))} is
 * {@code ffmpeg(format: 'mpegts', audio: [codec: 'aac', b: '64k'])}. What an engine encoder has no
 * knob for (an MP3's id3v2, a channel count) is left out, and said once in the log.
 */
final class Encoders {
    /** The encoders {@code %ifencoder} finds, when the engine has their operator. */
    static final Map<String, String> OPERATORS =
            Map.ofEntries(
                    Map.entry("mp3", "mp3"),
                    Map.entry("mp3.cbr", "mp3"),
                    Map.entry("mp3.vbr", "mp3"),
                    Map.entry("mp3.abr", "mp3"),
                    Map.entry("shine", "mp3"),
                    Map.entry("wav", "wav"),
                    Map.entry("vorbis", "vorbis"),
                    Map.entry("vorbis.cbr", "vorbis"),
                    Map.entry("vorbis.abr", "vorbis"),
                    Map.entry("ogg", "vorbis"),
                    Map.entry("opus", "opus"),
                    Map.entry("flac", "flac"),
                    Map.entry("fdkaac", "aac"),
                    Map.entry("ffmpeg", "ffmpeg"));

    /** How the engine makes one of its encoders: an operator call with named arguments. */
    interface Maker {
        Object make(String operator, Map<String, Object> named);

        boolean has(String operator);

        void note(String message);
    }

    private final Maker maker;

    Encoders(Maker maker) {
        this.maker = maker;
    }

    boolean available(String name) {
        String op = OPERATORS.get(name);
        return op != null && maker.has(op);
    }

    Object encoder(Format f) {
        String op = OPERATORS.get(f.name());
        if (op == null || !maker.has(op)) {
            throw Errors.invalid(
                    "the encoder %"
                            + f.name()
                            + " is not available here"
                            + (op == null ? "" : " (no " + op + "() operator)"));
        }
        Map<String, Object> named = new LinkedHashMap<>();
        switch (f.name()) {
            case "ogg" -> {
                for (Format.Param p : f.params()) {
                    if (p.value() instanceof Format inner) return encoder(inner);
                }
                return maker.make("vorbis", named);
            }
            case "ffmpeg" -> ffmpeg(f, named);
            case "wav" -> keep(f, named, Map.of("samplesize", "samplesize"));
            case "flac" -> keep(f, named, Map.of("compression", "compression"));
            case "vorbis", "vorbis.cbr", "vorbis.abr" -> keep(f, named, Map.of());
            default -> keep(f, named, Map.of("bitrate", "bitrate"));
        }
        return maker.make(op, named);
    }

    /** The parameters the engine takes, renamed; the others told once. */
    private void keep(Format f, Map<String, Object> named, Map<String, String> taken) {
        for (Format.Param p : f.params()) {
            if (p.label() == null) continue;
            String to = taken.get(p.label());
            if (to != null && p.value() != null) named.put(to, number(p.value()));
            else if (!IGNORED_QUIETLY.contains(p.label())) {
                maker.note(
                        "%"
                                + f.name()
                                + "("
                                + p.label()
                                + "): the engine's "
                                + OPERATORS.get(f.name())
                                + "() has no such knob; left out");
            }
        }
    }

    /** Liquidsoap's defaults the engine has too, not worth a note. */
    private static final Set<String> IGNORED_QUIETLY =
            Set.of("stereo", "mono", "samplerate", "channels", "id3v2", "internal_quality");

    private void ffmpeg(Format f, Map<String, Object> named) {
        Map<String, Object> options = new LinkedHashMap<>();
        for (Format.Param p : f.params()) {
            if (p.value() instanceof Format stream) {
                switch (stream.name()) {
                    case "audio", "audio.raw" -> named.put("audio", stream(stream));
                    case "video", "video.raw" -> named.put("video", stream(stream));
                    case "video.none", "audio.none" -> {}
                    default ->
                            throw Errors.invalid(
                                    "%ffmpeg(%"
                                            + stream.name()
                                            + "): not supported by Groovecast (use %audio(codec=...))");
                }
            } else if ("format".equals(p.label())) {
                named.put("format", Show.text(p.value()));
            } else if (p.label() != null && p.value() != null) {
                options.put(p.label(), Show.text(p.value()));
            }
        }
        if (!named.containsKey("audio")) {
            throw Errors.invalid(
                    "%ffmpeg needs an %audio(codec=...) stream here (Groovecast encodes audio, and video beside it)");
        }
        if (!options.isEmpty()) named.put("options", options);
    }

    private static Map<String, Object> stream(Format s) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Format.Param p : s.params()) {
            if (p.label() == null || p.value() == null) continue;
            String key =
                    switch (p.label()) {
                        case "samplerate" -> "ar";
                        case "channels" -> "ac";
                        default -> p.label();
                    };
            Object v = Values.base(p.value());
            out.put(key, v instanceof String str ? str : Show.text(v));
        }
        return out;
    }

    private static Object number(Object v) {
        Object b = Values.base(v);
        return b instanceof Long l ? (Object) l.intValue() : b;
    }

    static List<String> names() {
        return List.copyOf(OPERATORS.keySet());
    }
}
