package org.groovecast.liquidsoap.types;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.groovecast.liquidsoap.syntax.EncoderParam;
import org.groovecast.liquidsoap.syntax.Expr;

/**
 * The type of an encoder, {@code %mp3(stereo)} is a {@code format(audio=pcm(stereo))}: what it
 * encodes, as Liquidsoap's encoders compute it from their parameters (the channels from {@code
 * mono}, {@code stereo}, {@code channels=n}; for {@code %ffmpeg}, one track per stream, audio or
 * video by its name, an {@code audio_content} or {@code video_content} flag or its codec).
 */
final class Encoders {
    private Encoders() {}

    private static final Set<String> AUDIO_ONLY =
            Set.of(
                    "mp3",
                    "mp3.cbr",
                    "mp3.abr",
                    "mp3.vbr",
                    "mp3.fxp",
                    "shine",
                    "fdkaac",
                    "flac",
                    "opus",
                    "speex",
                    "vorbis",
                    "vorbis.cbr",
                    "vorbis.abr",
                    "wav");

    /** The encoders Liquidsoap 2.4 has. */
    static final Set<String> KNOWN =
            Set.of(
                    "mp3",
                    "mp3.cbr",
                    "mp3.abr",
                    "mp3.vbr",
                    "mp3.fxp",
                    "shine",
                    "fdkaac",
                    "flac",
                    "opus",
                    "speex",
                    "vorbis",
                    "vorbis.cbr",
                    "vorbis.abr",
                    "wav",
                    "ogg",
                    "avi",
                    "ndi",
                    "external",
                    "theora",
                    "ffmpeg");

    private static final Set<String> OGG_AUDIO =
            Set.of("vorbis", "vorbis.cbr", "vorbis.abr", "opus", "speex", "flac");

    /** Codecs of the FFmpeg streams whose name says nothing of their media. */
    private static final Set<String> AUDIO_CODECS =
            Set.of(
                    "aac",
                    "libfdk_aac",
                    "mp3",
                    "libmp3lame",
                    "mp2",
                    "opus",
                    "libopus",
                    "vorbis",
                    "libvorbis",
                    "flac",
                    "alac",
                    "ac3",
                    "eac3",
                    "pcm_s16le",
                    "pcm_s16be",
                    "pcm_f32le",
                    "pcm_s24le",
                    "pcm_u8",
                    "wavpack",
                    "libshine",
                    "aac_at",
                    "speex",
                    "libspeex",
                    "mp3_mf",
                    "aac_mf");

    private static final Set<String> VIDEO_CODECS =
            Set.of(
                    "libx264",
                    "h264",
                    "libx265",
                    "hevc",
                    "h264_nvenc",
                    "hevc_nvenc",
                    "h264_vaapi",
                    "hevc_vaapi",
                    "h264_qsv",
                    "hevc_qsv",
                    "h264_videotoolbox",
                    "hevc_videotoolbox",
                    "h264_v4l2m2m",
                    "h264_omx",
                    "mpeg4",
                    "mpeg2video",
                    "mpeg1video",
                    "libvpx",
                    "libvpx-vp9",
                    "vp8",
                    "vp9",
                    "libaom-av1",
                    "libsvtav1",
                    "av1",
                    "mjpeg",
                    "png",
                    "gif",
                    "libtheora",
                    "theora",
                    "rawvideo",
                    "flv",
                    "flv1",
                    "prores",
                    "prores_ks",
                    "dnxhd",
                    "ffv1",
                    "libxvid",
                    "h263",
                    "wmv2",
                    "msmpeg4");

    /** Checks the values of the parameters with {@code infer}, then gives the encoder's type. */
    static Type typeOf(Expr.Encoder e, java.util.function.Consumer<Expr> infer) {
        checkValues(e, infer);
        String name = e.name();
        Map<String, Type> tracks = new LinkedHashMap<>();
        if (AUDIO_ONLY.contains(name)) {
            tracks.put("audio", Tracks.audio(channels(e.params(), 2)));
        } else if (name.equals("avi")) {
            tracks.put("audio", Tracks.audio(channels(e.params(), 2)));
            tracks.put("video", Tracks.video());
        } else if (name.equals("theora")) {
            tracks.put("video", Tracks.video());
        } else if (name.equals("external")) {
            tracks.put("audio", Tracks.audio(channels(e.params(), 2)));
            if (isTrue(e.params(), "video")) tracks.put("video", Tracks.video());
        } else if (name.equals("ndi")) {
            boolean audio = true;
            boolean video = true;
            for (EncoderParam p : e.params()) {
                if (p instanceof EncoderParam.Nested n) {
                    switch (n.encoder().name()) {
                        case "audio" -> audio = true;
                        case "audio.none" -> audio = false;
                        case "video" -> video = true;
                        case "video.none" -> video = false;
                        default -> {}
                    }
                }
            }
            if (!audio && !video) throw new TypeError(e.span(), "Invalid %ndi encoder parameter!");
            if (audio) tracks.put("audio", Tracks.audio(2));
            if (video) tracks.put("video", Tracks.video());
        } else if (name.equals("ogg")) {
            for (EncoderParam p : e.params()) {
                if (p instanceof EncoderParam.Nested n) {
                    Expr.Encoder inner = n.encoder();
                    if (OGG_AUDIO.contains(inner.name()) && !tracks.containsKey("audio")) {
                        tracks.put("audio", Tracks.audio(channels(inner.params(), 2)));
                    } else if (inner.name().equals("theora")) {
                        tracks.put("video", Tracks.video());
                    }
                }
            }
        } else if (name.equals("ffmpeg")) {
            ffmpeg(e, tracks);
        } else {
            throw unsupported(e);
        }
        return Tracks.format(Tracks.record(tracks, Type.UNIT));
    }

    static TypeError unsupported(Expr.Encoder e) {
        return new TypeError(
                e.span(),
                "Unsupported encoder: %"
                        + e.name()
                        + ". You must be missing an optional dependency.");
    }

    private static void checkValues(Expr.Encoder e, java.util.function.Consumer<Expr> infer) {
        for (EncoderParam p : e.params()) {
            switch (p) {
                case EncoderParam.Labelled l -> infer.accept(l.value());
                case EncoderParam.Nested n -> checkValues(n.encoder(), infer);
                case EncoderParam.Flag f -> {}
            }
        }
    }

    private static boolean isTrue(List<EncoderParam> params, String label) {
        for (EncoderParam p : params) {
            if (p instanceof EncoderParam.Labelled l
                    && l.label().equals(label)
                    && l.value() instanceof Expr.BoolLit b) {
                return b.value();
            }
        }
        return false;
    }

    /** The channels {@code mono}, {@code stereo}, {@code channels=n}... say; static values only. */
    private static int channels(List<EncoderParam> params, int fallback) {
        for (EncoderParam p : params) {
            if (p instanceof EncoderParam.Flag f) {
                String n = f.name().toLowerCase(Locale.ROOT);
                if (n.equals("mono")) return 1;
                if (n.equals("stereo")) return 2;
            } else if (p instanceof EncoderParam.Labelled l) {
                switch (l.label()) {
                    case "stereo", "mono" -> {
                        if (!(l.value() instanceof Expr.BoolLit b)) {
                            throw new TypeError(
                                    l.value().span(),
                                    "Invalid value for "
                                            + l.label()
                                            + " mode. Only static `true` or `false` are allowed.");
                        }
                        return b.value() == l.label().equals("stereo") ? 2 : 1;
                    }
                    case "channels" -> {
                        if (!(l.value() instanceof Expr.IntLit i)) {
                            throw new TypeError(
                                    l.value().span(),
                                    "Invalid value for channels mode. Only static numbers are"
                                            + " allowed.");
                        }
                        try {
                            return Integer.decode(i.text().replace("_", ""));
                        } catch (NumberFormatException ex) {
                            return fallback;
                        }
                    }
                    default -> {}
                }
            }
        }
        return fallback;
    }

    /**
     * An %ffmpeg audio stream's channels, as lang_ffmpeg.ml reads them: {@code channel_layout} (a
     * static float, 5.1, or string, "7.1", that FFmpeg names) first, then {@code channels} or
     * {@code ac}, else stereo.
     */
    private static int ffmpegChannels(List<EncoderParam> params) {
        Expr layout = null;
        Expr count = null;
        for (EncoderParam p : params) {
            if (!(p instanceof EncoderParam.Labelled l)) continue;
            switch (l.label()) {
                case "channel_layout" -> layout = layout == null ? l.value() : layout;
                case "channels", "ac" -> count = count == null ? l.value() : count;
                default -> {}
            }
        }
        Integer fromLayout =
                switch (layout) {
                    case Expr.FloatLit f -> {
                        try {
                            yield LAYOUTS.get(
                                    String.format(
                                            Locale.ROOT, "%.1f", Double.parseDouble(f.text())));
                        } catch (NumberFormatException e) {
                            yield null;
                        }
                    }
                    case Expr.StringLit str -> LAYOUTS.get(str.text());
                    case null, default -> null;
                };
        if (fromLayout != null) return fromLayout;
        if (count == null) return 2;
        if (!(count instanceof Expr.IntLit i)) {
            throw new TypeError(
                    count.span(),
                    "Invalid value for channels parameter. Only static numbers are allowed.");
        }
        try {
            return Integer.decode(i.text().replace("_", ""));
        } catch (NumberFormatException ex) {
            return 2;
        }
    }

    /** FFmpeg's channel layout names and their channels. */
    private static final Map<String, Integer> LAYOUTS =
            Map.ofEntries(
                    Map.entry("mono", 1),
                    Map.entry("stereo", 2),
                    Map.entry("downmix", 2),
                    Map.entry("2.1", 3),
                    Map.entry("3.0", 3),
                    Map.entry("3.0(back)", 3),
                    Map.entry("4.0", 4),
                    Map.entry("quad", 4),
                    Map.entry("quad(side)", 4),
                    Map.entry("3.1", 4),
                    Map.entry("5.0", 5),
                    Map.entry("5.0(side)", 5),
                    Map.entry("4.1", 5),
                    Map.entry("5.1", 6),
                    Map.entry("5.1(side)", 6),
                    Map.entry("6.0", 6),
                    Map.entry("6.0(front)", 6),
                    Map.entry("hexagonal", 6),
                    Map.entry("6.1", 7),
                    Map.entry("6.1(back)", 7),
                    Map.entry("6.1(front)", 7),
                    Map.entry("7.0", 7),
                    Map.entry("7.0(front)", 7),
                    Map.entry("7.1", 8),
                    Map.entry("7.1(wide)", 8),
                    Map.entry("7.1(wide-side)", 8),
                    Map.entry("octagonal", 8),
                    Map.entry("hexadecagonal", 16),
                    Map.entry("22.2", 24));

    private static void ffmpeg(Expr.Encoder e, Map<String, Type> tracks) {
        for (EncoderParam p : e.params()) {
            if (!(p instanceof EncoderParam.Nested n)) continue;
            Expr.Encoder stream = n.encoder();
            String[] parts = stream.name().split("\\.", 2);
            String field = parts[0];
            String mode = parts.length > 1 ? parts[1] : "";
            Type content;
            switch (mode) {
                case "drop", "none" ->
                        content = new TypeVar(TypeVar.ANY_LEVEL, List.of(Constraint.TRACK));
                case "copy" -> {
                    copyParams(stream);
                    content = Tracks.format("ffmpeg.copy", Map.of());
                }
                case "raw" ->
                        content =
                                Tracks.format(
                                        audio(stream, field)
                                                ? "ffmpeg.audio.raw"
                                                : "ffmpeg.video.raw",
                                        Map.of());
                case "" ->
                        content =
                                audio(stream, field)
                                        ? Tracks.audio(ffmpegChannels(stream.params()))
                                        : Tracks.video();
                default -> throw new TypeError(stream.span(), "invalid content field");
            }
            tracks.put(field, content);
        }
    }

    /** A copied stream takes at most one flag, and only those FFmpeg knows. */
    private static void copyParams(Expr.Encoder stream) {
        if (stream.params().isEmpty()) return;
        EncoderParam first = stream.params().getFirst();
        if (stream.params().size() == 1
                && first instanceof EncoderParam.Flag f
                && (f.name().equals("ignore_keyframe") || f.name().equals("wait_for_keyframe"))) {
            return;
        }
        String what =
                switch (first) {
                    case EncoderParam.Flag f -> f.name();
                    case EncoderParam.Labelled l -> l.label();
                    case EncoderParam.Nested x -> "%" + x.encoder().name();
                };
        throw new TypeError(first.span(), "Unknown encoder parameter: " + what);
    }

    /** Whether an FFmpeg stream is audio (else video), as Liquidsoap decides. */
    private static boolean audio(Expr.Encoder stream, String field) {
        for (EncoderParam p : stream.params()) {
            if (p instanceof EncoderParam.Flag f) {
                if (f.name().equals("audio_content")) return true;
                if (f.name().equals("video_content")) return false;
            }
        }
        if (field.contains("audio")) return true;
        if (field.contains("video")) return false;
        for (EncoderParam p : stream.params()) {
            if (p instanceof EncoderParam.Labelled l
                    && l.label().equals("codec")
                    && l.value() instanceof Expr.StringLit s) {
                if (AUDIO_CODECS.contains(s.text())) return true;
                if (VIDEO_CODECS.contains(s.text())) return false;
                throw new TypeError(l.value().span(), mediaError(stream));
            }
        }
        throw new TypeError(stream.span(), mediaError(stream));
    }

    private static String mediaError(Expr.Encoder stream) {
        return "Cannot decide whether the %ffmpeg stream %"
                + stream.name()
                + " is audio or video. Use \"audio\" or \"video\" in its name (%dolby_audio),"
                + " add audio_content or video_content to its parameters, or give a static"
                + " codec string (codec=\"libmp3lame\")";
    }
}
