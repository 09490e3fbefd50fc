package org.groovecast.ffmpeg.hls;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_MP3;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_NONE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.encode.EncodeSource;
import org.groovecast.ffmpeg.encode.FfmpegEncoder;
import org.groovecast.ffmpeg.encode.MediaEncoder;
import org.groovecast.ffmpeg.encode.SharedPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HLS rendition: an encoder whose packets are cut into segments on an exact grid of {@code
 * segmentSamples} (MPEG-TS, or fragmented MP4 for codecs TS does not carry), and its media
 * playlist, rewritten atomically after every segment.
 *
 * <p>A segment never runs past the playlist's target duration by the RFC 8216 rounding: if the
 * grid's cut has not come (a video keyframe that is late) it is cut anyway before it would.
 *
 * <p>A segment or playlist that cannot be written (a full disk) costs the segments until the disk
 * takes them again, not the output: the failure is logged once, what was being written is deleted,
 * packets are dropped meanwhile (the encoder runs on, so the clock keeps its pace), writing is
 * tried again at each cut of the grid, and the first segment after the gap follows a discontinuity.
 * The segments already listed stay as they are.
 *
 * <p>The title (the {@code title} and {@code artist} of the frames' metadata) goes into the
 * segments as HLS's timed metadata, as ID3 tags (see {@link TimedId3} for when a change counts and
 * falls due): at the head of every segment, with the title playing at its first sample, so that a
 * player joining mid-track shows it, and at the sample of each change within a segment where the
 * format allows (MPEG-TS and fragmented MP4; packed audio carries it at the next segment's head).
 */
final class HlsVariant implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HlsVariant.class);
    private static final long REPORT_NANOS = 60_000_000_000L;

    private final String name;
    private final FfmpegEncoder encoding;
    private final EncodeSource shared;
    private final Path dir;
    private final AudioFormat format;
    private final VideoFormat video;
    private long segmentSamples;
    private HlsPlaylist playlist;

    /**
     * The longest a segment may be: under the target duration plus half a second, which EXTINF
     * rounding allows.
     */
    private long limitSamples;

    private MediaEncoder encoder;
    private final MediaEncoder.Sink sink = this::packet;

    /** The current run's segment writer: null before a run's first segment and after a failure. */
    private HlsSegments segments;

    private boolean mapListed;

    /** The segment being written, by its standard name until it is finished and named. */
    private String segmentFile;

    /** Where the segment being written is, until it is finished. */
    private Path writing;

    private final HlsNames names;

    /** Whether AAC and MP3 segments are packed audio rather than MPEG-TS. */
    private final boolean packed;

    /** Whether the segments carry the title as timed metadata. */
    private final boolean timedId3;

    private final TimedId3 titles = new TimedId3();
    private long segmentStart;
    private long nextCut;
    private long encoded;

    /**
     * Where the run of a shared encode began, in its packets' time: its frames' samples count from
     * there.
     */
    private long runStart;

    private long lastPacingAt = Long.MIN_VALUE;
    private boolean started;
    private boolean discontinuity;
    private boolean waitForCut;
    private long failedAt = -1;
    private long reportedAt;
    private boolean reported;
    private String videoCodec;
    private String audioCodec;
    private boolean handedOver;

    /** Where the files also go, or null: set by the output once it is open. */
    private HlsPublisher publisher;

    /**
     * @param shared the shared encode whose packets this rendition copies, or null to encode with
     *     {@code encoding} here
     */
    HlsVariant(
            String name,
            FfmpegEncoder encoding,
            EncodeSource shared,
            Path dir,
            AudioFormat format,
            VideoFormat video,
            double segmentDuration,
            int keep) {
        this(
                name,
                encoding,
                shared,
                dir,
                format,
                video,
                segmentDuration,
                keep,
                keep,
                HlsNames.standard(dir),
                false,
                true);
    }

    /**
     * @param overhead how many segments stay on disk after they left the playlist
     * @param names what the segment files are called
     * @param packed AAC and MP3 as packed audio segments rather than MPEG-TS
     * @param timedId3 the title in the segments as timed metadata
     */
    HlsVariant(
            String name,
            FfmpegEncoder encoding,
            EncodeSource shared,
            Path dir,
            AudioFormat format,
            VideoFormat video,
            double segmentDuration,
            int keep,
            int overhead,
            HlsNames names,
            boolean packed,
            boolean timedId3) {
        this.names = names;
        this.packed = packed;
        this.timedId3 = timedId3;
        this.video = video;
        this.name = name;
        this.encoding = encoding;
        this.shared = shared;
        this.dir = dir;
        this.format = format;
        this.segmentSamples = Math.max(1, format.samples(segmentDuration));
        this.playlist = new HlsPlaylist(Hls.targetDuration(segmentDuration), keep, overhead);
        this.limitSamples = limit(playlist);
    }

    private long limit(HlsPlaylist p) {
        // 0.499, not 0.5: the EXTINF written with three decimals must round down too
        return (long) Math.floor((p.targetDuration() + 0.499) * format.sampleRate());
    }

    String name() {
        return name;
    }

    FfmpegEncoder encoding() {
        return encoding;
    }

    /**
     * Encodes a frame's samples (or copies its shared packets); segments are cut as packets cross
     * the grid.
     */
    void encode(Frame frame) throws IOException {
        if (shared != null) {
            if (!started) {
                started = true;
                segmentStart =
                        -1; // the grid starts at the first packet: a shared encode's time runs on
                // through gaps
                encoded = 0;
                audioCodec = Hls.audioCodecs(shared.codec().codec_id(), shared.codec().profile());
            }
            if (timedId3) offer(frame, segmentStart < 0 ? Long.MIN_VALUE : runStart + encoded);
            encoded += frame.position();
            for (int i = 0; i < frame.encodedCount(); i++) {
                if (frame.encoded(i) instanceof SharedPacket p && p.origin == shared)
                    packet(p.packet, p.timeBase(), 0);
            }
            return;
        }
        if (encoder == null) {
            encoder =
                    encoding.newMediaEncoder(
                            format, video, fragmented()); // MP4 wants the codec headers up front
            encoder.keyframes(
                    segmentSamples); // a video segment must start on a keyframe: put one on every
            // cut
            AVCodecContext audio = encoder.contexts().getFirst();
            audioCodec = Hls.audioCodecs(audio.codec_id(), audio.profile());
            segmentStart = 0;
            nextCut = segmentSamples;
            encoded = 0;
        }
        if (timedId3) offer(frame, encoded);
        encoded += frame.position();
        encoder.encode(frame, sink);
    }

    /** The frame's titles, the frame starting at stream sample {@code start}. */
    private void offer(Frame frame, long start) {
        for (int i = 0; i < frame.metadataCount(); i++) {
            titles.offer(
                    frame.metadata(i),
                    start == Long.MIN_VALUE ? Long.MIN_VALUE : start + frame.metadataPosition(i));
        }
    }

    private boolean fragmented() {
        int id = codecId();
        return id != AV_CODEC_ID_NONE && Hls.fragmented(id);
    }

    /** The audio codec, from the shared encode or the encoder's name. */
    private int codecId() {
        if (shared != null) return shared.codec().codec_id();
        return Hls.codecId(encoding.codec());
    }

    /** Whether the segments are packed audio: asked for, and an audio-only AAC or MP3 rendition. */
    private boolean packedAudio() {
        return packed && encoding.video() == null && Hls.packable(codecId());
    }

    private void packet(AVPacket packet, AVRational timeBase, int stream) {
        // The packet's start in stream samples, from the codec's time base.
        long at = packet.pts() * format.sampleRate() * timeBase.num() / timeBase.den();
        if (segmentStart < 0) {
            segmentStart = Math.max(0, at);
            runStart = segmentStart;
            nextCut = segmentStart + segmentSamples;
        }
        boolean key = (packet.flags() & AV_PKT_FLAG_KEY) != 0;
        if (stream == 1 && videoCodec == null && key)
            videoCodec = Hls.avc(packet.data(), packet.size());
        boolean hasVideo = encoder != null && encoder.hasVideo();
        // With video, segments start on the keyframes put on the grid; audio follows the cut.
        boolean cuttable = !hasVideo || stream == 1 && key;
        boolean pacing = !hasVideo || stream == 1;
        long end = at;
        if (pacing) {
            // Encoders that state no packet duration (libx264): the last interval will do.
            long duration =
                    packet.duration() > 0
                            ? packet.duration()
                                    * format.sampleRate()
                                    * timeBase.num()
                                    / timeBase.den()
                            : lastPacingAt == Long.MIN_VALUE ? 0 : Math.max(0, at - lastPacingAt);
            lastPacingAt = at;
            end = at + duration;
        }
        // An encoder's first packets may start before its first sample (AAC's priming): they
        // count as at it, so that the first segment has the first title at its head.
        Id3Cue changed = titles.due(shared != null ? at : Math.max(at, 0));
        boolean started = false;
        if (segmentFile != null) {
            // A segment ends where the packet that ends it starts: cut before one that would take
            // it past the limit.
            if (pacing && (cuttable && at >= nextCut || end - segmentStart > limitSamples)) {
                finishSegment(at);
                if (!waitForCut) { // straight on into the next segment
                    startSegment(at);
                    started = true;
                }
            }
        } else if (waitForCut && (!cuttable || at < nextCut)) {
            return; // after a failure the disk is tried again at the next cut of the grid, not at
            // every packet
        } else {
            startSegment(at);
            started = true;
        }
        if (segmentFile != null) {
            try {
                // A segment that starts here has the new title at its head already.
                if (changed != null && !started) segments.cue(changed);
                segments.write(packet, timeBase, stream);
            } catch (IOException e) {
                failed(e);
            }
        }
    }

    private void startSegment(long at) {
        if (waitForCut) {
            segmentStart = at; // what the gap lost is not in any segment
            discontinuity = true;
        }
        waitForCut = false;
        while (nextCut <= at) nextCut += segmentSamples;
        try {
            if (segments == null) {
                List<AVCodecContext> codecs =
                        shared != null ? List.of(shared.codec()) : encoder.contexts();
                int rate = format.sampleRate();
                if (fragmented()) {
                    segments =
                            new Fmp4Segments(
                                    codecs,
                                    dir.resolve(names.init(name, playlist.nextSequence())),
                                    rate,
                                    timedId3);
                } else if (packedAudio()) {
                    segments =
                            new PackedSegments(
                                    codecs.getFirst(),
                                    codecId() == AV_CODEC_ID_MP3,
                                    rate,
                                    timedId3);
                } else {
                    segments = new TsSegments(codecs, rate, timedId3);
                }
                mapListed = false;
            }
            long sequence = playlist.nextSequence();
            segmentFile = name + "_" + sequence + "." + segments.extension();
            writing =
                    names.deferred()
                            ? names.temporary(name, sequence, segments.extension())
                            : dir.resolve(segmentFile);
            segments.begin(writing, at, timedId3 ? titles.current() : null);
        } catch (IOException e) {
            failed(e);
        }
    }

    /**
     * Closes the segment file; it covers stream samples [segmentStart, end), so durations add up to
     * what was sent.
     */
    private void finishSegment(long end) {
        try {
            segments.end();
        } catch (IOException e) {
            failed(e);
            segmentStart = end;
            return;
        }
        double seconds = format.seconds(end - segmentStart);
        long samples = end - segmentStart;
        segmentStart = end;
        if (names.deferred()) {
            String named =
                    names.segment(
                            name, playlist.nextSequence(), segments.extension(), seconds, samples);
            try {
                names.publish(writing, named);
            } catch (IOException e) {
                failed(e);
                return;
            }
            segmentFile = named;
        }
        writing = null;
        List<String> gone = playlist.add(segmentFile, seconds, discontinuity, segments.map());
        if (publisher != null) {
            if (segments.map() != null) publisher.file(segments.map());
            publisher.file(segmentFile);
            publisher.expired(gone);
        }
        mapListed = true;
        segmentFile = null;
        discontinuity = false;
        for (String file : gone) {
            try {
                Files.deleteIfExists(dir.resolve(file));
            } catch (IOException e) {
                log.debug("{}: cannot delete {}: {}", name, file, e.toString());
            }
        }
        try {
            writePlaylist(false);
            if (failedAt >= 0 && reported) {
                log.warn(
                        "output.file.hls {}: rendition {} writing again after {} s",
                        dir,
                        name,
                        String.format("%.1f", (System.nanoTime() - failedAt) / 1e9));
            }
            failedAt = -1;
        } catch (IOException e) {
            report(e); // the segment stays listed: the next playlist written names it
        }
    }

    /**
     * A segment could not be written: the failure is reported, the segment and the run's muxer are
     * dropped (an init section no listed segment needs with them), and the disk is tried again at
     * the next cut of the grid.
     */
    private void failed(IOException e) {
        report(e);
        dropSegment();
        waitForCut = true;
    }

    /**
     * Logs a write failure once per outage, and at most once a minute for a disk that keeps filling
     * up again.
     */
    private void report(IOException e) {
        if (failedAt < 0) {
            failedAt = System.nanoTime();
            reported = reportedAt == 0 || failedAt - reportedAt > REPORT_NANOS;
            if (reported) {
                reportedAt = failedAt;
                log.error(
                        "output.file.hls {}: rendition {} cannot write ({}): no new segments until the disk takes "
                                + "them again, tried at every segment cut; the rest of the station plays on",
                        dir,
                        name,
                        e.toString());
            }
        }
    }

    /**
     * Abandons the segment being written, and the run's init section if no listed segment needs it.
     */
    private void dropSegment() {
        if (segments != null) {
            segments.close();
            if (writing != null) deleteQuietly(writing.getFileName().toString(), writing);
            if (!mapListed) deleteQuietly(segments.map());
        }
        segments = null;
        segmentFile = null;
        writing = null;
    }

    private void deleteQuietly(String file) {
        if (file != null) deleteQuietly(file, dir.resolve(file));
    }

    private static void deleteQuietly(String file, Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // nothing more can be done for it now
        }
    }

    /**
     * The source ran dry: the current segment ends here, the encoder is drained, and the next
     * segment, whenever sound comes back, follows a discontinuity.
     */
    void interrupt() throws IOException {
        if (shared != null) {
            if (!started) return;
            // A shared encode keeps running for its other outputs: only this rendition's segment
            // ends.
            if (segmentFile != null) finishSegment(runStart + encoded);
            endRun();
            started = false;
            return;
        }
        if (encoder == null) return;
        try {
            encoder.finish(sink);
            if (segmentFile != null) finishSegment(encoded);
        } finally {
            encoder.close();
            encoder = null;
            endRun();
        }
    }

    /** A new encoder starts its own timestamps: a new run, after a discontinuity. */
    private void endRun() {
        titles.restart();
        dropSegment();
        waitForCut = false;
        lastPacingAt = Long.MIN_VALUE;
        discontinuity = true;
    }

    /**
     * A reload: this rendition's playlist goes on from {@code previous}'s, whose current segment
     * ends here: the same numbers, discontinuity sequence and target duration, the segments players
     * may be reading; the first new segment follows a discontinuity (a new encoder starts its own
     * timestamps).
     */
    void continueFrom(HlsVariant previous) throws IOException {
        previous.interrupt();
        previous.handedOver = true;
        int wanted = playlist.targetDuration();
        playlist = previous.playlist;
        limitSamples = limit(playlist);
        if (wanted > playlist.targetDuration()) {
            // The new encoder's grid (and its video keyframes) follows, since encoders start at the
            // first frame.
            segmentSamples = format.samples(playlist.targetDuration());
            log.warn(
                    "output.file.hls {}: rendition {} keeps the running playlist's target duration of {} s, which "
                            + "may not change: segments of {} s until the output restarts",
                    dir,
                    name,
                    playlist.targetDuration(),
                    playlist.targetDuration());
        }
        titles.continueFrom(previous.titles);
        failedAt = previous.failedAt;
        reportedAt = previous.reportedAt;
        reported = previous.reported;
        discontinuity = true;
    }

    /**
     * The playlist, to the origin first if there is one: a disk that fails locally does not hold it
     * back.
     */
    private void writePlaylist(boolean ended) throws IOException {
        String text = playlist.render(ended);
        if (publisher != null) publisher.playlist(name + ".m3u8", text, playlist.files());
        Hls.writeAtomically(dir.resolve(name + ".m3u8"), text);
    }

    /** Files and playlists go to {@code p} too from now on (null: only to disk). */
    void publishTo(HlsPublisher p) {
        publisher = p;
    }

    /**
     * The CODECS attribute for the master playlist: the video codec if encoded here, and the audio
     * one; null when the audio codec has no CODECS name.
     */
    String codecs() {
        if (audioCodec == null) return null;
        return encoding.video() == null
                ? audioCodec
                : (videoCodec == null ? "avc1.640028" : videoCodec) + "," + audioCodec;
    }

    /**
     * Whether the master playlist can be written: the codec strings are known once the encoder ran
     * (and a keyframe was out).
     */
    boolean described() {
        return (audioCodec != null || encoder != null || shared != null && started)
                && (encoding.video() == null
                        || shared != null
                        || videoCodec != null
                        || !playlist.isEmpty());
    }

    /** Peak bit rate for the master playlist, from the codec or a safe guess. */
    long bandwidth() {
        long rate = 0;
        if (shared != null) rate = shared.codec().bit_rate();
        else if (encoder != null) for (var c : encoder.contexts()) rate += c.bit_rate();
        if (encoding.video() != null && rate < 1_000_000)
            return 5_000_000; // rate-controlled video states no rate
        return rate > 0 ? rate * 11 / 10 : 192_000;
    }

    /** Finishes the stream: last segment, end of playlist. */
    @Override
    public void close() throws IOException {
        close(false);
    }

    /**
     * Finishes the run: its last segment, and the end of the playlist unless {@code resumable} (the
     * state is saved for a restart to go on, and players polling meanwhile must not stop).
     */
    void close(boolean resumable) throws IOException {
        if (handedOver)
            return; // a reloaded station's rendition writes this playlist now: no end for players
        interrupt();
        writePlaylist(!resumable);
    }

    /** Whether a reloaded station's rendition took this one's playlist over. */
    boolean handedOver() {
        return handedOver;
    }

    /** What a restart needs to go on from this rendition's playlist. */
    HlsState.Saved saved() {
        return playlist.saved();
    }

    /**
     * A restart with a saved state: the playlist goes on from it (its numbers, its segments), the
     * first new segment after a discontinuity (a new encoder starts its own timestamps).
     */
    void resume(HlsState.Saved saved) {
        playlist = playlist.resumed(saved);
        limitSamples = limit(playlist);
        discontinuity = true;
    }
}
