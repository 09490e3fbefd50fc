package org.groovecast.ffmpeg.hls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.ffmpeg.encode.Muxer;

/**
 * Packed audio segments (RFC 8216 §3.4): AAC in ADTS ({@code .aac}) or MP3 ({@code .mp3}) frames as
 * they are, each segment beginning with the ID3 tag that packed audio must begin with: its PRIV
 * {@code com.apple.streaming.transportStreamTimestamp} frame gives the segment's first sample its
 * 90 kHz timestamp, which players place the segment by, and the title playing there (TIT2, TPE1)
 * comes with it. FFmpeg's ADTS and MP3 muxers write no such frame, so the tag is written here
 * before the muxer's first byte (the MP3 muxer's own ID3 and Xing headers turned off).
 *
 * <p>A title that changes within a segment is carried at the head of the next one: an ID3 tag in
 * the middle of the frames is not something every player skips.
 */
final class PackedSegments implements HlsSegments {
    private static final Map<String, String> MP3 =
            Map.of("id3v2_version", "0", "write_xing", "0", "write_id3v1", "0");

    private final AVCodecContext codec;
    private final String format;
    private final String extension;
    private final int sampleRate;
    private final boolean timedId3;
    private FileChannel channel;
    private Muxer muxer;

    /**
     * @param mp3 MP3 frames rather than AAC in ADTS
     * @param sampleRate the rendition's, in which stream samples count
     * @param timedId3 whether the head's tag also has the title
     */
    PackedSegments(AVCodecContext codec, boolean mp3, int sampleRate, boolean timedId3) {
        this.codec = codec;
        this.format = mp3 ? "mp3" : "adts";
        this.extension = mp3 ? "mp3" : "aac";
        this.sampleRate = sampleRate;
        this.timedId3 = timedId3;
    }

    @Override
    public String extension() {
        return extension;
    }

    @Override
    public void begin(Path file, long at, Id3Cue current) throws IOException {
        channel =
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
        // A run's first packet may start before 0 (an encoder's priming): its timestamp is 0, as
        // MPEG-TS's would be.
        Id3Tag tag = new Id3Tag().transportStreamTimestamp(Math.max(0, at) * 90_000 / sampleRate);
        if (timedId3 && current != null)
            tag.text("TIT2", current.title()).text("TPE1", current.artist());
        ByteBuffer head = ByteBuffer.wrap(tag.toBytes());
        while (head.hasRemaining()) channel.write(head);
        muxer = new Muxer(format, format.equals("mp3") ? MP3 : Map.of(), List.of(codec), channel);
    }

    @Override
    public void cue(Id3Cue cue) {
        // carried by the next segment's head
    }

    @Override
    public void write(AVPacket packet, AVRational timeBase, int stream) throws IOException {
        muxer.write(packet, timeBase, stream);
    }

    @Override
    public void end() throws IOException {
        try {
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
