package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;

/**
 * MPEG-TS segments: each a stream of its own (its own PAT, PMT and headers), so any one can start a
 * player.
 */
final class TsSegments implements HlsSegments {
    private final List<AVCodecContext> codecs;
    private FileChannel channel;
    private Muxer muxer;

    TsSegments(List<AVCodecContext> codecs) {
        this.codecs = codecs;
    }

    @Override
    public String extension() {
        return "ts";
    }

    @Override
    public void begin(Path file) throws IOException {
        channel =
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
        muxer = new Muxer("mpegts", Map.of(), codecs, channel);
    }

    @Override
    public void write(AVPacket packet, AVRational timeBase, int stream) throws IOException {
        muxer.write(packet, timeBase, stream);
    }

    @Override
    public void end() throws IOException {
        try {
            // No fsync: it would block the clock on the disk, and players read from the page cache
            // anyway.
            muxer.finish();
        } finally {
            close();
        }
    }

    @Override
    public String map() {
        return null;
    }

    @Override
    public void close() {
        if (muxer != null) muxer.close();
        muxer = null;
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // a file being abandoned: nothing more to do with it
            }
        }
        channel = null;
    }
}
