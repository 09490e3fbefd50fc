package org.groovecast.ffmpeg.remote;

import static org.bytedeco.ffmpeg.global.avformat.av_find_input_format;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.ffmpeg.shared.Av;
import org.pf4j.Extension;

/**
 * Remote streams pulled through FFmpeg: {@code input.ffmpeg} for any URL it reads, {@code
 * input.http} for Icecast and Shoutcast.
 */
@Extension
public final class InputOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                common(
                                OperatorSpec.named("input.http")
                                        .doc(
                                                "A remote HTTP(S) stream (Icecast, Shoutcast, HLS) with its ICY titles as metadata; available "
                                                        + "while it plays, reconnecting with backoff: fallback(input.http('http://host:8000/radio'), blank()).")
                                        .positional("url", STRING, "an http:// or https:// URL")
                                        .named(
                                                "options",
                                                MAP,
                                                Map.of(),
                                                "FFmpeg protocol and demuxer options (user_agent:, headers:...)"))
                        .create(a -> input(a, true)),
                common(
                                OperatorSpec.named("input.ffmpeg")
                                        .doc(
                                                "Any stream FFmpeg reads (http, https, HLS, srt, rtmp, udp...); available while it plays, "
                                                        + "reconnecting with backoff.")
                                        .positional("url", STRING, "the URL, as ffmpeg -i takes it")
                                        .named(
                                                "format",
                                                STRING,
                                                null,
                                                "the demuxer (ffmpeg -f), when probing cannot tell")
                                        .named(
                                                "options",
                                                MAP,
                                                Map.of(),
                                                "FFmpeg protocol and demuxer options, as ffmpeg -i takes them "
                                                        + "(icy: 1, listen: 1, reconnect...)"))
                        .create(a -> input(a, false)));
    }

    private static OperatorSpec.Builder common(OperatorSpec.Builder spec) {
        return spec.named(
                        "timeout",
                        NUMBER,
                        10.0,
                        "seconds without data after which the remote is dropped and reconnected")
                .named("buffer", NUMBER, 2.0, "seconds decoded before the source becomes available")
                .named(
                        "max",
                        NUMBER,
                        10.0,
                        "seconds kept at most; newer samples past that are dropped")
                .method(
                        "isConnected",
                        "in.isConnected(): whether the remote is connected and decoding now")
                .returns(SOURCE);
    }

    private static PullInput input(Arguments a, boolean http) {
        String op = a.operator() + "()";
        String url = a.string("url").trim();
        if (url.isEmpty()) throw new ScriptException(op + ": url is empty");
        Map<String, String> options = new LinkedHashMap<>();
        AVInputFormat format = null;
        if (http) {
            String scheme =
                    url.contains("://")
                            ? url.substring(0, url.indexOf("://")).toLowerCase(Locale.ROOT)
                            : "";
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new ScriptException(
                        op
                                + ": url must be http:// or https://, got \""
                                + url
                                + "\"; input.ffmpeg() reads other URLs");
            }
            options.put(
                    "icy",
                    "1"); // the server interleaves titles in the stream; FFmpeg's http strips and
            // keeps them
        } else if (a.value("format") != null) {
            String name = a.string("format");
            Av.init();
            format = av_find_input_format(name);
            if (format == null || format.isNull()) {
                throw new ScriptException(
                        op + ": unknown format '" + name + "'; ffmpeg -demuxers lists them");
            }
        }
        for (Map.Entry<?, ?> e : a.map("options").entrySet()) {
            if (e.getValue() == null)
                throw new ScriptException(op + ": option " + e.getKey() + " has no value");
            options.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
        }
        double timeout = a.number("timeout");
        double buffer = a.number("buffer");
        double max = a.number("max");
        if (!(timeout > 0))
            throw new ScriptException(op + ": timeout must be positive (seconds), got " + timeout);
        if (!(buffer >= 0))
            throw new ScriptException(op + ": buffer must be 0 or more (seconds), got " + buffer);
        if (!(max > buffer)) {
            throw new ScriptException(
                    op
                            + ": max ("
                            + max
                            + " s) must be more than buffer ("
                            + buffer
                            + " s): it bounds what is kept beyond the buffer");
        }
        return new PullInput(a.operator(), url, format, options, timeout, buffer, max);
    }
}
