package org.groovecast.ffmpeg.hls;

import static org.bytedeco.ffmpeg.global.avcodec.av_new_packet;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.ffmpeg.encode.Muxer;
import org.groovecast.ffmpeg.shared.Av;

/**
 * MPEG-TS segments: each a stream of its own (its own PAT, PMT and headers), so any one can start a
 * player.
 *
 * <p>With timed metadata, each also has the timed_id3 stream of Apple's "Timed Metadata for HTTP
 * Live Streaming": FFmpeg's muxer writes its packets (PES private stream 1, stream type 0x15, the
 * metadata_descriptor) and {@link TsMetadataPointer} adds the PMT's metadata_pointer_descriptor.
 * Its first packet, at the segment's first sample, has the title playing there; a title that
 * changes within the segment follows at the sample it changes on.
 */
final class TsSegments implements HlsSegments {
    private final List<AVCodecContext> codecs;
    private final boolean timedId3;

    /** Stream samples, the time base of the ID3 packets' timestamps. */
    private final AVRational samples;

    private final TsMetadataPointer pointer;
    private FileChannel channel;
    private Muxer muxer;
    private AVPacket id3;

    /**
     * @param sampleRate the rendition's, in which stream samples count
     * @param timedId3 whether the segments carry the title as timed metadata
     */
    TsSegments(List<AVCodecContext> codecs, int sampleRate, boolean timedId3) {
        this.codecs = codecs;
        this.timedId3 = timedId3;
        this.samples = new AVRational().num(1).den(sampleRate);
        this.pointer = timedId3 ? new TsMetadataPointer() : null;
    }

    @Override
    public String extension() {
        return "ts";
    }

    @Override
    public void begin(Path file, long at, Id3Cue current) throws IOException {
        channel =
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
        if (!timedId3) {
            muxer = new Muxer("mpegts", Map.of(), codecs, channel);
            return;
        }
        pointer.to(channel);
        muxer = Muxer.withTimedId3("mpegts", codecs, pointer);
        if (id3 == null) id3 = av_packet_alloc();
        if (current != null) write(current, at);
    }

    @Override
    public void cue(Id3Cue cue) throws IOException {
        if (timedId3) write(cue, cue.at());
    }

    /** The ID3 packet of {@code cue} at stream sample {@code at}. */
    private void write(Id3Cue cue, long at) throws IOException {
        byte[] tag = cue.tag();
        Av.check(av_new_packet(id3, tag.length), "cannot allocate an ID3 packet");
        try {
            id3.data().put(tag, 0, tag.length);
            id3.pts(at);
            id3.dts(at);
            muxer.write(id3, samples, codecs.size());
        } finally {
            av_packet_unref(id3);
        }
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
            closeSegment();
        }
    }

    @Override
    public String map() {
        return null;
    }

    @Override
    public void close() {
        closeSegment();
        if (id3 != null) av_packet_free(id3);
        id3 = null;
    }

    private void closeSegment() {
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
