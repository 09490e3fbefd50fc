package org.groovecast.liquidsoap.types;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The types of what sources carry: {@code source(audio=pcm(stereo), video=canvas)} is the
 * constructor {@code source} over a record of tracks, each a content kind with its format (see
 * {@link Type.TrackKind}); {@code format(...)}, an encoder's type, the same over what it encodes.
 */
final class Tracks {
    private Tracks() {}

    /** The kinds of content a track may hold, by the names a type may give them. */
    static final Set<String> KINDS =
            Set.of(
                    "pcm",
                    "pcm_s16",
                    "pcm_f32",
                    "canvas",
                    "midi",
                    "metadata",
                    "track_marks",
                    "ffmpeg.copy",
                    "ffmpeg.audio.raw",
                    "ffmpeg.video.raw");

    /** The kind a name stands for ({@code audio} is pcm), or null. */
    static String kind(String name) {
        if (name.equals("audio")) return "pcm";
        if (name.equals("video")) return "canvas";
        return KINDS.contains(name) ? name : null;
    }

    /** {@code source(t)}: sources are invariant in what they carry. */
    static Type source(Type tracks) {
        return new Type.Constr("source", List.of(new Type.Param(Type.Variance.INVARIANT, tracks)));
    }

    /** {@code format(t)}: an encoder of t. */
    static Type format(Type tracks) {
        return new Type.Constr("format", List.of(new Type.Param(Type.Variance.COVARIANT, tracks)));
    }

    /** A record of tracks over base: {@code {audio : pcm(stereo)}.base}. */
    static Type record(Map<String, Type> tracks, Type base) {
        Type t = base;
        for (var e : tracks.entrySet()) t = Methods.meth(e.getKey(), e.getValue(), t);
        return t;
    }

    /** A kind whose format is not known yet: {@code pcm}. */
    static Type kind(String kind, int level) {
        return new Type.TrackKind(kind, new TypeVar(level));
    }

    /** A known format: {@code pcm(stereo)}, {@code canvas}. */
    static Type format(String kind, Map<String, String> params) {
        return new Type.TrackKind(kind, new Type.TrackFormat(kind, new ContentFormat(params)));
    }

    /** Audio of n channels. */
    static Type audio(int channels) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("channels", String.valueOf(channels));
        return format("pcm", p);
    }

    static Type video() {
        return format("canvas", Map.of());
    }

    /**
     * The parameters of a content type as written, {@code pcm(stereo)}, {@code canvas(width=640)}:
     * null when the kind does not take them.
     */
    static Map<String, String> params(String kind, List<String[]> written) {
        Map<String, String> p = new LinkedHashMap<>();
        for (String[] labelValue : written) {
            String label = labelValue[0];
            String value = labelValue[1];
            if (kind.startsWith("pcm") && label.isEmpty()) {
                String channels =
                        switch (value) {
                            case "mono" -> "1";
                            case "stereo" -> "2";
                            case "5.1" -> "6";
                            default -> null;
                        };
                if (channels == null) return null;
                p.put("channels", channels);
            } else if (!label.isEmpty()) {
                p.put(label, value);
            } else {
                return null;
            }
        }
        return p;
    }
}
