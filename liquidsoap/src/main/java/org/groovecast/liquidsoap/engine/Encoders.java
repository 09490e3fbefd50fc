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
 * {@code %fdkaac} is libfdk_aac in ADTS through {@code ffmpeg}, {@code %ffmpeg(format="mpegts",
 * %audio(codec="aac", b="64k"))} is {@code ffmpeg(format: 'mpegts', audio: [codec: 'aac', b:
 * '64k'])}. What an engine encoder has no knob for (an MP3's id3v2, a channel count) is left out,
 * and said once in the log.
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
                    Map.entry("fdkaac", "ffmpeg"),
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
            case "fdkaac" -> fdkaac(f, named);
            case "wav" -> keep(f, named, Map.of("samplesize", "samplesize"));
            case "flac" -> keep(f, named, Map.of("compression", "compression"));
            // %vorbis is VBR at a quality, .cbr and .abr at a bit rate: vorbis() takes either.
            case "vorbis" -> keep(f, named, Map.of("quality", "quality"));
            case "vorbis.cbr", "vorbis.abr" -> keep(f, named, Map.of("bitrate", "bitrate"));
            default -> keep(f, named, Map.of("bitrate", "bitrate"));
        }
        return maker.make(op, named);
    }

    /**
     * {@code %fdkaac}: libfdk_aac in ADTS, its {@code aot} as the FFmpeg profile (HE-AACv2 by
     * default, as in Liquidsoap); where FFmpeg has no libfdk_aac the engine encodes AAC-LC at the
     * same bit rate and says so once.
     */
    private void fdkaac(Format f, Map<String, Object> named) {
        Map<String, Object> audio = new LinkedHashMap<>();
        audio.put("codec", "libfdk_aac");
        audio.put("b", "64k");
        audio.put("profile", "aac_he_v2");
        for (Format.Param p : f.params()) {
            if (p.label() == null || p.value() == null) continue;
            String v = Show.text(p.value());
            switch (p.label()) {
                case "bitrate" -> audio.put("b", v + "k");
                case "aot" -> audio.put("profile", profile(v));
                case "afterburner" -> audio.put("afterburner", v.equals("true") ? "1" : "0");
                case "vbr" -> {
                    audio.remove("b");
                    audio.put("vbr", v);
                }
                case "samplerate" -> audio.put("ar", v);
                case "channels" -> audio.put("ac", v);
                case "transmux" -> {
                    if (!v.equals("adts"))
                        maker.note("%fdkaac(transmux=\"" + v + "\"): Groovecast writes ADTS");
                }
                default ->
                        maker.note(
                                "%fdkaac("
                                        + p.label()
                                        + "): the engine has no such knob; left out");
            }
        }
        named.put("format", "adts");
        named.put("audio", audio);
    }

    /** Liquidsoap's {@code aot} as FFmpeg's libfdk_aac profile. */
    private static String profile(String aot) {
        return switch (aot) {
            case "mpeg4_aac_lc", "mpeg2_aac_lc" -> "aac_low";
            case "mpeg4_he_aac", "mpeg2_he_aac" -> "aac_he";
            case "mpeg4_he_aac_v2", "mpeg2_he_aac_v2" -> "aac_he_v2";
            case "mpeg4_aac_ld" -> "aac_ld";
            case "mpeg4_aac_eld" -> "aac_eld";
            default -> throw Errors.invalid("%fdkaac(aot=\"" + aot + "\"): no such object type");
        };
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
