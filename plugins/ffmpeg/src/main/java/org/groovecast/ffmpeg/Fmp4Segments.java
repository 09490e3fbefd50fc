package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;

/**
 * Fragmented MP4 segments (RFC 8216 §3.3), for the codecs MPEG-TS does not carry (Opus, FLAC,
 * Vorbis): one MP4 muxer for the whole run, whose header (ftyp and moov) is the init section
 * players load from {@code #EXT-X-MAP}, and one fragment (moof and mdat) per segment file, so
 * timestamps run on across segments as players expect.
 */
final class Fmp4Segments implements HlsSegments {
    private static final Map<String, String> FRAGMENTED =
            Map.of("movflags", "frag_custom+empty_moov+default_base_moof");

    private final List<AVCodecContext> codecs;
    private final Path init;
    private final Target target = new Target();
    private Muxer muxer;

    /**
     * @param init where the init section goes, written with the first segment
     */
    Fmp4Segments(List<AVCodecContext> codecs, Path init) {
        this.codecs = codecs;
        this.init = init;
    }

    @Override
    public String extension() {
        return "m4s";
    }

    @Override
    public void begin(Path file) throws IOException {
        if (muxer == null) {
            target.open(init);
            try {
                muxer = new Muxer("mp4", FRAGMENTED, codecs, target);
                muxer.flush();
            } finally {
                target.close();
            }
        }
        target.open(file);
    }

    @Override
    public void write(AVPacket packet, AVRational timeBase, int stream) throws IOException {
        muxer.write(packet, timeBase, stream);
    }

    @Override
    public void end() throws IOException {
        try {
            muxer.flushFragment();
        } finally {
            target.close();
        }
    }

    @Override
    public String map() {
        return init.getFileName().toString();
    }

    @Override
    public void close() {
        if (muxer != null) muxer.close(); // no trailer: the fragments are the stream
        muxer = null;
        target.close();
    }

    /** The file the muxer writes into now: the init section, then each segment in turn. */
    private static final class Target implements WritableByteChannel {
        private FileChannel file;

        void open(Path path) throws IOException {
            file =
                    FileChannel.open(
                            path,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            if (file == null) throw new IOException("no segment open");
            return file.write(src);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            if (file == null) return;
            try {
                file.close();
            } catch (IOException ignored) {
                // a file being abandoned: nothing more to do with it
            }
            file = null;
        }
    }
}
