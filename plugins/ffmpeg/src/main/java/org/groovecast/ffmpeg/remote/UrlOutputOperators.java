package org.groovecast.ffmpeg.remote;

import static org.bytedeco.ffmpeg.global.avformat.av_guess_format;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.ENCODER;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.OUTPUT;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bytedeco.ffmpeg.avformat.AVOutputFormat;
import org.groovecast.api.Arguments;
import org.groovecast.api.Encoder;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.ffmpeg.encode.FfmpegEncoder;
import org.groovecast.ffmpeg.shared.Av;
import org.pf4j.Extension;

/**
 * {@code output.url}: any URL FFmpeg's muxers and protocols write (srt, udp, rtp, icecast, a file).
 */
@Extension
public final class UrlOutputOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("output.url")
                        .doc(
                                "Streams to any URL FFmpeg writes: output.url('srt://host:9000', ffmpeg(format: 'mpegts', "
                                        + "audio: [codec: 'aac']), s); reconnects with backoff; the clock never waits for the network.")
                        .positional(
                                "url",
                                STRING,
                                "srt://, udp://, rtp://, icecast://, tcp://, rtmp:// or a file path")
                        .positional(
                                "encoder",
                                ENCODER,
                                "an FFmpeg encoder: mp3(), aac(), opus(), ffmpeg(...)")
                        .positional("source", SOURCE, "the source to encode")
                        .named(
                                "format",
                                STRING,
                                null,
                                "the muxer (ffmpeg -f); guessed from the URL: mpegts for srt, udp "
                                        + "and tcp, rtp for rtp, flv for rtmp, the encoder's own for icecast, by extension for a file")
                        .named(
                                "options",
                                MAP,
                                Map.of(),
                                "protocol and muxer options, as ffmpeg takes them (pkt_size:, "
                                        + "latency:, content_type:...)")
                        .named(
                                "timeout",
                                NUMBER,
                                10.0,
                                "seconds a connection or a write may take before the peer is dropped")
                        .named(
                                "queue",
                                NUMBER,
                                5.0,
                                "seconds of packets kept for a slow peer; past that the oldest are dropped")
                        .named(
                                "fallible",
                                BOOLEAN,
                                false,
                                "accept a source that may become unavailable")
                        .method(
                                "isConnected",
                                "out.isConnected(): whether the muxer is open on the URL now")
                        .returns(OUTPUT)
                        .create(UrlOutputOperators::output));
    }

    private static UrlOutput output(Arguments a) {
        String op = "output.url()";
        String url = a.string("url").trim();
        if (url.isEmpty()) throw new ScriptException(op + ": url is empty");
        Encoder e = a.encoder("encoder");
        if (!(e instanceof FfmpegEncoder encoding)) {
            throw new ScriptException(
                    op
                            + ": needs an FFmpeg encoder such as mp3(), aac(), opus() or ffmpeg(...), got "
                            + e.name()
                            + "()");
        }
        Av.init();
        String format = a.value("format") != null ? a.string("format") : guess(url, encoding);
        AVOutputFormat f = av_guess_format(format, null, null);
        if (f == null || f.isNull())
            throw new ScriptException(
                    op + ": unknown format '" + format + "'; ffmpeg -muxers lists them");
        FfmpegEncoder muxed = encoding.withFormat(format);
        if (!format.startsWith(
                "rtp")) { // RTP packetises for its socket: it cannot be tried on a throwaway
            // channel
            try {
                muxed.validate();
            } catch (IllegalArgumentException ex) {
                throw new ScriptException(
                        op
                                + ": "
                                + encoding.name()
                                + "() cannot be muxed as "
                                + format
                                + ": "
                                + ex.getMessage()
                                + "; give another encoder or format:",
                        ex);
            }
        }
        Map<String, String> options = new LinkedHashMap<>(encoding.formatOptions());
        for (Map.Entry<?, ?> o : a.map("options").entrySet()) {
            if (o.getValue() == null)
                throw new ScriptException(op + ": option " + o.getKey() + " has no value");
            options.put(String.valueOf(o.getKey()), String.valueOf(o.getValue()));
        }
        double timeout = a.number("timeout");
        double queue = a.number("queue");
        if (!(timeout > 0))
            throw new ScriptException(op + ": timeout must be positive (seconds), got " + timeout);
        if (!(queue > 0))
            throw new ScriptException(op + ": queue must be positive (seconds), got " + queue);
        return new UrlOutput(
                url,
                muxed,
                format,
                options,
                a.source("source"),
                a.bool("fallible"),
                timeout,
                queue);
    }

    /** The container a URL implies, as ffmpeg users expect it. */
    static String guess(String url, FfmpegEncoder encoding) {
        String scheme =
                url.contains("://")
                        ? url.substring(0, url.indexOf("://")).toLowerCase(Locale.ROOT)
                        : "file";
        return switch (scheme) {
            case "srt", "udp", "udplite", "tcp", "unix" -> "mpegts";
            case "rtp" -> encoding.video() != null ? "rtp_mpegts" : "rtp";
            case "rtmp", "rtmps" -> "flv";
            case "icecast" -> encoding.format();
            default -> {
                AVOutputFormat f = av_guess_format(null, url, null);
                yield f == null || f.isNull() ? encoding.format() : f.name().getString();
            }
        };
    }
}
