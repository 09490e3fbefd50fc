package org.groovecast.ffmpeg.hls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.ffmpeg.encode.Muxer;

/**
 * Fragmented MP4 segments (RFC 8216 §3.3), for the codecs MPEG-TS does not carry (Opus, FLAC,
 * Vorbis): one MP4 muxer for the whole run, whose header (ftyp and moov) is the init section
 * players load from {@code #EXT-X-MAP}, and one fragment (moof and mdat) per segment file, so
 * timestamps run on across segments as players expect.
 *
 * <p>Timed metadata goes in {@code emsg} boxes before the fragment (CMAF puts them there). FFmpeg's
 * MP4 muxer writes no such box, so they are written here, straight into the segment file before the
 * muxer's fragment: the box of the title playing at the segment's first sample, at that sample, so
 * that a player joining mid-track shows it, then one for each title the segment changes to, at its
 * sample. Each repetition of a title keeps the id of its change: a player that saw it already takes
 * it for the same event.
 */
final class Fmp4Segments implements HlsSegments {
    private static final Map<String, String> FRAGMENTED =
            Map.of("movflags", "frag_custom+empty_moov+default_base_moof");

    private final List<AVCodecContext> codecs;
    private final Path init;
    private final Target target = new Target();
    private final int sampleRate;
    private final boolean timedId3;
    private Muxer muxer;

    /**
     * Where the run's media timeline starts, in stream samples: its first packet's, which the
     * muxer's first fragment starts at (0 in its {@code tfdt}).
     */
    private long origin = Long.MIN_VALUE;

    /** The segment's emsg boxes, written before its fragment when it ends. */
    private final List<byte[]> boxes = new ArrayList<>();

    /**
     * @param init where the init section goes, written with the first segment
     * @param sampleRate the rendition's: the emsg boxes' timescale
     * @param timedId3 whether the segments carry the title as timed metadata
     */
    Fmp4Segments(List<AVCodecContext> codecs, Path init, int sampleRate, boolean timedId3) {
        this.codecs = codecs;
        this.init = init;
        this.sampleRate = sampleRate;
        this.timedId3 = timedId3;
    }

    @Override
    public String extension() {
        return "m4s";
    }

    @Override
    public void begin(Path file, long at, Id3Cue current) throws IOException {
        if (muxer == null) {
            target.open(init);
            try {
                muxer = new Muxer("mp4", FRAGMENTED, codecs, target);
                muxer.flush();
            } finally {
                target.close();
            }
            origin = at;
        }
        target.open(file);
        boxes.clear();
        if (timedId3 && current != null) boxes.add(box(current, Math.max(current.at(), at)));
    }

    @Override
    public void cue(Id3Cue cue) {
        if (timedId3) boxes.add(box(cue, cue.at()));
    }

    private byte[] box(Id3Cue cue, long at) {
        return Emsg.id3(sampleRate, Math.max(0, at - origin), cue.id(), cue.tag());
    }

    @Override
    public void write(AVPacket packet, AVRational timeBase, int stream) throws IOException {
        muxer.write(packet, timeBase, stream);
    }

    @Override
    public void end() throws IOException {
        try {
            // The muxer holds the fragment until it is flushed: the boxes come first in the file.
            for (byte[] b : boxes) {
                ByteBuffer box = ByteBuffer.wrap(b);
                while (box.hasRemaining()) target.write(box);
            }
            boxes.clear();
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
