package org.groovecast.ffmpeg;

import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.VideoFormat;

/**
 * One HLS rendition: an encoder whose packets are cut into MPEG-TS segments on an exact grid of
 * {@code segmentSamples}, and its media playlist, rewritten atomically after every segment.
 */
final class HlsVariant implements AutoCloseable {
    /** A finished segment in the playlist. */
    private record Segment(long sequence, String file, double seconds, boolean discontinuity) {
    }

    private final String name;
    private final FfmpegEncoder encoding;
    private final EncodeSource shared;
    private final Path dir;
    private final AudioFormat format;
    private final VideoFormat video;
    private final long segmentSamples;
    private final int keep;
    private final Deque<Segment> playlist = new ArrayDeque<>();
    private MediaEncoder encoder;
    private final MediaEncoder.Sink sink = this::packet;
    private Muxer muxer;
    private FileChannel channel;
    private String segmentFile;
    private long sequence;
    private long segmentStart;
    private long nextCut;
    private long encoded;
    private boolean started;
    private boolean discontinuity;
    private double maxSeconds;
    private String videoCodec;
    private boolean handedOver;

    /**
     * @param shared the shared encode whose packets this rendition copies, or null to encode
     *               with {@code encoding} here
     */
    HlsVariant(String name, FfmpegEncoder encoding, EncodeSource shared, Path dir, AudioFormat format,
               VideoFormat video, double segmentDuration, int keep) {
        this.video = video;
        this.name = name;
        this.encoding = encoding;
        this.shared = shared;
        this.dir = dir;
        this.format = format;
        this.segmentSamples = Math.max(1, format.samples(segmentDuration));
        this.keep = keep;
    }

    String name() {
        return name;
    }

    FfmpegEncoder encoding() {
        return encoding;
    }

    /** Encodes a frame's samples (or copies its shared packets); segments are cut as packets cross the grid. */
    void encode(Frame frame) throws IOException {
        if (shared != null) {
            if (!started) {
                started = true;
                segmentStart = 0;
                nextCut = segmentSamples;
                encoded = 0;
            }
            encoded += frame.position();
            for (int i = 0; i < frame.encodedCount(); i++) {
                if (frame.encoded(i) instanceof SharedPacket p && p.origin == shared) packet(p.packet, p.timeBase(), 0);
            }
            return;
        }
        if (encoder == null) {
            encoder = encoding.newMediaEncoder(format, video, false);
            encoder.keyframes(segmentSamples); // a video segment must start on a keyframe: put one on every cut
            segmentStart = 0;
            nextCut = segmentSamples;
            encoded = 0;
        }
        encoded += frame.position();
        encoder.encode(frame, sink);
    }

    private void packet(AVPacket packet, AVRational timeBase, int stream) throws IOException {
        // The packet's start in stream samples, from the codec's time base.
        long at = packet.pts() * format.sampleRate() * timeBase.num() / timeBase.den();
        // With video, segments start on the keyframes put on the grid; audio follows the cut.
        if (stream == 1 && videoCodec == null && (packet.flags() & AV_PKT_FLAG_KEY) != 0) {
            videoCodec = Hls.avc(packet.data(), packet.size());
        }
        boolean cuttable = encoder == null || !encoder.hasVideo()
                || stream == 1 && (packet.flags() & AV_PKT_FLAG_KEY) != 0;
        if (cuttable && at >= nextCut && muxer != null) {
            finishSegment(at);
            while (nextCut <= at) nextCut += segmentSamples;
        }
        if (muxer == null) startSegment();
        muxer.write(packet, timeBase, stream);
    }

    private void startSegment() throws IOException {
        segmentFile = name + "_" + sequence + ".ts";
        channel = FileChannel.open(dir.resolve(segmentFile), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        muxer = new Muxer("mpegts", Map.of(), shared != null ? List.of(shared.codec()) : encoder.contexts(), channel);
    }

    /** Closes the segment file; it covers stream samples [segmentStart, end), so durations add up to what was sent. */
    private void finishSegment(long end) throws IOException {
        try {
            // No fsync: it would block the clock on the disk, and players read from the page cache anyway.
            muxer.finish();
        } finally {
            muxer.close();
            channel.close();
            muxer = null;
            channel = null;
        }
        double seconds = format.seconds(end - segmentStart);
        segmentStart = end;
        maxSeconds = Math.max(maxSeconds, seconds);
        playlist.addLast(new Segment(sequence++, segmentFile, seconds, discontinuity));
        discontinuity = false;
        while (playlist.size() > keep) {
            Segment old = playlist.removeFirst();
            // Players may still fetch a segment that just left the playlist: delete it one round later.
            Files.deleteIfExists(dir.resolve(name + "_" + (old.sequence() - keep) + ".ts"));
        }
        writePlaylist(false);
    }

    /**
     * The source ran dry: the current segment ends here, the encoder is drained, and the next
     * segment, whenever sound comes back, follows a discontinuity.
     */
    void interrupt() throws IOException {
        if (shared != null) {
            // A shared encode keeps running for its other outputs: only this rendition's segment ends.
            if (muxer != null) finishSegment(encoded);
            if (started) discontinuity = true;
            started = false;
            return;
        }
        if (encoder == null) return;
        try {
            encoder.finish(sink);
            if (muxer != null) finishSegment(encoded);
        } finally {
            encoder.close();
            encoder = null;
        }
        discontinuity = true;
    }

    /**
     * A reload: this rendition's segment sequence goes on from {@code previous}'s, whose current
     * segment ends here; the playlist keeps the segments players may be reading, and the first new
     * one follows a discontinuity (a new encoder starts its own timestamps).
     */
    void continueFrom(HlsVariant previous) throws IOException {
        previous.interrupt();
        previous.handedOver = true;
        playlist.clear();
        playlist.addAll(previous.playlist);
        sequence = previous.sequence;
        maxSeconds = previous.maxSeconds;
        discontinuity = true;
    }

    private void writePlaylist(boolean ended) throws IOException {
        StringBuilder m = new StringBuilder("#EXTM3U\n#EXT-X-VERSION:3\n");
        // RFC 8216: every EXTINF, rounded to the nearest integer, must not exceed the target duration.
        m.append("#EXT-X-TARGETDURATION:").append(Math.max(1, Math.round(maxSeconds))).append('\n');
        m.append("#EXT-X-MEDIA-SEQUENCE:").append(playlist.isEmpty() ? sequence : playlist.getFirst().sequence()).append('\n');
        for (Segment s : playlist) {
            if (s.discontinuity()) m.append("#EXT-X-DISCONTINUITY\n");
            m.append(String.format(Locale.ROOT, "#EXTINF:%.3f,%n", s.seconds())).append(s.file()).append('\n');
        }
        if (ended) m.append("#EXT-X-ENDLIST\n");
        Hls.writeAtomically(dir.resolve(name + ".m3u8"), m.toString());
    }

    /** The CODECS attribute for the master playlist: the audio codec, and the video one if encoded here. */
    String codecs() {
        String audio = Hls.codecs(encoding.codec());
        return encoding.video() == null ? audio : (videoCodec == null ? "avc1.640028" : videoCodec) + "," + audio;
    }

    /** Whether the master playlist can be written: the video codec string is known once a keyframe was out. */
    boolean described() {
        return encoding.video() == null || shared != null || videoCodec != null || sequence > 0;
    }

    /** Peak bit rate for the master playlist, from the codec or a safe guess. */
    long bandwidth() {
        long rate = 0;
        if (shared != null) rate = shared.codec().bit_rate();
        else if (encoder != null) for (var c : encoder.contexts()) rate += c.bit_rate();
        if (encoding.video() != null && rate < 1_000_000) return 5_000_000; // rate-controlled video states no rate
        return rate > 0 ? rate * 11 / 10 : 192_000;
    }

    /** Finishes the stream: last segment, end of playlist. */
    @Override
    public void close() throws IOException {
        if (handedOver) return; // a reloaded station's rendition writes this playlist now: no end for players
        interrupt();
        writePlaylist(true);
    }
}
