package org.groovecast.ffmpeg.decode;

import static org.bytedeco.ffmpeg.global.avformat.av_find_input_format;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.FfmpegSettings;
import org.groovecast.ffmpeg.shared.Av;
import org.pf4j.Extension;

/** Live streams (a DJ on {@code input.harbor}) decoded by FFmpeg, read through {@link StreamIo}. */
@Extension
public final class FfmpegLiveDecoder implements LiveDecoder {
    @Override
    public Stream open(InputStream in, String contentType, AudioFormat format) throws IOException {
        return open(in, contentType, format, null, null);
    }

    @Override
    public Stream open(
            InputStream in,
            String contentType,
            AudioFormat format,
            VideoFormat video,
            StreamContext context)
            throws IOException {
        int scalingThreads = FfmpegSettings.scalingThreads(context);
        Av.init();
        // On failure MediaDecoder closes the format context and the I/O itself.
        MediaDecoder d =
                MediaDecoder.open(
                        "live stream",
                        new StreamIo(in),
                        hint(contentType),
                        format,
                        video,
                        scalingThreads);
        return new Stream() {
            private long reads;

            @Override
            public int read(Frame frame) throws IOException {
                // Each read is a "tick" for the decoder's picture pool: what the last one attached
                // may be reused.
                return d.read(frame, frame.free(), ++reads);
            }

            @Override
            public Map<String, String> tags() {
                return d.tags();
            }

            @Override
            public void close() {
                d.close();
            }
        };
    }

    /** The container a Content-Type names; null lets FFmpeg probe. */
    private static AVInputFormat hint(String contentType) {
        if (contentType == null) return null;
        String name =
                switch (contentType.toLowerCase(Locale.ROOT).split(";")[0].trim()) {
                    case "audio/mpeg", "audio/mp3" -> "mp3";
                    case "audio/aac", "audio/aacp", "audio/x-aac" -> "aac";
                    case "audio/ogg", "application/ogg", "audio/opus", "audio/vorbis" -> "ogg";
                    case "audio/flac" -> "flac";
                    case "video/mp2t" -> "mpegts";
                    case "video/x-flv" -> "flv"; // input.rtmp hands its messages over as FLV tags
                    case "video/webm", "audio/webm" -> "matroska";
                    default -> null;
                };
        AVInputFormat f = name == null ? null : av_find_input_format(name);
        return f == null || f.isNull() ? null : f;
    }
}
