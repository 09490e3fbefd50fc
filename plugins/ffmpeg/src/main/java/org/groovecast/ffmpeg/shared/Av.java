package org.groovecast.ffmpeg.shared;

import static org.bytedeco.ffmpeg.global.avutil.AV_DICT_IGNORE_SUFFIX;
import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_QUIET;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_get;
import static org.bytedeco.ffmpeg.global.avutil.av_log_set_level;
import static org.bytedeco.ffmpeg.global.avutil.av_strerror;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVDictionaryEntry;

/**
 * Small helpers over FFmpeg's C conventions: error codes to messages, dictionaries to maps.
 * FFmpeg's own logging is silenced: the engine reports problems itself, once, with the path.
 */
public final class Av {
    static {
        av_log_set_level(AV_LOG_QUIET);
    }

    private Av() {}

    /** Loads the native libraries and silences FFmpeg's stderr logging; idempotent. */
    public static void init() {
        // the static initialiser does the work
    }

    public static String error(int code) {
        byte[] buf = new byte[256];
        if (av_strerror(code, buf, buf.length) < 0) return "error " + code;
        int n = 0;
        while (n < buf.length && buf[n] != 0) n++;
        return new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** Throws an {@link IOException} naming {@code what} when {@code ret} is an FFmpeg error. */
    public static int check(int ret, String what) throws IOException {
        if (ret < 0) throw new IOException(what + ": " + error(ret));
        return ret;
    }

    /** The keys left in a dictionary: after avcodec_open2, the options nobody took. */
    public static List<String> keys(AVDictionary dict) {
        List<String> out = new ArrayList<>();
        if (dict == null || dict.isNull()) return out;
        AVDictionaryEntry e = null;
        while ((e = av_dict_get(dict, "", e, AV_DICT_IGNORE_SUFFIX)) != null && !e.isNull())
            out.add(e.key().getString());
        return out;
    }

    /**
     * Copies a dictionary's entries into {@code into}, keys lower-cased; a null dictionary adds
     * nothing.
     */
    public static void copy(AVDictionary dict, Map<String, String> into) {
        if (dict == null || dict.isNull()) return;
        AVDictionaryEntry e = null;
        while ((e = av_dict_get(dict, "", e, AV_DICT_IGNORE_SUFFIX)) != null && !e.isNull()) {
            into.putIfAbsent(e.key().getString().toLowerCase(Locale.ROOT), e.value().getString());
        }
    }
}
