package org.groovecast.ffmpeg.encode;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.util.Map;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;

/**
 * {@code copy()}: muxes the packets a shared encode ({@code ffmpeg.encode.audio}) put in the
 * frames, without encoding anything. The container follows the codec unless {@code format:} says.
 */
final class CopyEncoder implements Encoder {
    private final String format;

    CopyEncoder(String format) {
        this.format = format;
    }

    @Override
    public String name() {
        return "copy";
    }

    @Override
    public String extension() {
        return format == null ? "bin" : format;
    }

    static String formatFor(String codec) {
        return switch (codec) {
            case "aac", "libfdk_aac" -> "adts";
            case "libmp3lame", "mp3" -> "mp3";
            case "libopus", "vorbis", "libvorbis", "opus" -> "ogg";
            case "flac" -> "flac";
            default -> "matroska";
        };
    }

    @Override
    public Session open(AudioFormat input, WritableByteChannel out) {
        return new Session() {
            private Muxer muxer;
            private EncodeSource origin;

            @Override
            public void encode(Frame frame) throws IOException {
                for (int i = 0; i < frame.encodedCount(); i++) {
                    if (!(frame.encoded(i) instanceof SharedPacket p)) continue;
                    if (muxer == null) {
                        origin = p.origin;
                        String f = format != null ? format : formatFor(origin.encoding().codec());
                        muxer = new Muxer(f, Map.of(), origin.codec(), out);
                    }
                    if (p.origin == origin) muxer.write(p.packet, p.timeBase());
                }
            }

            @Override
            public void flush() throws IOException {
                if (muxer != null) muxer.flush();
            }

            @Override
            public void close() throws IOException {
                if (muxer == null) return;
                try {
                    muxer.finish();
                } finally {
                    muxer.close();
                    muxer = null;
                }
            }
        };
    }
}
