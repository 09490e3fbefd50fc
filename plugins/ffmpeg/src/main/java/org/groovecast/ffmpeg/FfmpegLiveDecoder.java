package org.groovecast.ffmpeg;

import static org.bytedeco.ffmpeg.global.avformat.av_find_input_format;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.LiveDecoder;
import org.pf4j.Extension;

/** Live streams (a DJ on {@code input.harbor}) decoded by FFmpeg, read through {@link StreamIo}. */
@Extension
public final class FfmpegLiveDecoder implements LiveDecoder {
    @Override
    public Stream open(InputStream in, String contentType, AudioFormat format) throws IOException {
        Av.init();
        StreamIo io = new StreamIo(in);
        MediaDecoder d;
        try {
            d = MediaDecoder.open("live stream", io, hint(contentType), format);
        } catch (IOException | RuntimeException e) {
            // MediaDecoder closed the format context and the I/O on failure
            throw e;
        }
        return new Stream() {
            @Override
            public int read(Frame frame) throws IOException {
                return d.read(frame, frame.free(), 0);
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
        String name = switch (contentType.toLowerCase(Locale.ROOT).split(";")[0].trim()) {
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
