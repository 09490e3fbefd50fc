package org.groovecast.ffmpeg.hls;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.encode.EncodeSource;
import org.groovecast.ffmpeg.encode.FfmpegEncoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code output.file.hls(dir, [name: encoder, ...], s)}: one rendition per encoder (MPEG-TS, or
 * fragmented MP4 for Opus, FLAC and Vorbis), each with its media playlist, and a master playlist
 * {@code stream.m3u8} naming them all (AAC and MP3 as packed audio if asked), the title and artist
 * in every segment as timed metadata (ID3). A directory it cannot write in when the station starts
 * is a start error; a disk that fills up on air costs segments, not the output (see {@link
 * HlsVariant}). With {@code publish:} the same files also go to an HTTP origin (see {@link
 * HlsPublisher}); the local directory is written as without it, and a reload to the same origin
 * keeps the publisher.
 */
final class HlsOutput extends Output {
    private static final Logger log = LoggerFactory.getLogger(HlsOutput.class);
    private static final long MASTER_RETRY_NANOS = 1_000_000_000L;

    /**
     * How long a stopping output gives a healthy origin to take what waits (the last segment,
     * #EXT-X-ENDLIST).
     */
    private static final long PUBLISH_DRAIN_MILLIS = 5_000;

    private final Path dir;
    private final HlsFiles files;
    private final Map<String, Object> renditions;
    private final double segmentDuration;
    private final int segments;
    private final List<HlsVariant> variants = new ArrayList<>();
    private boolean masterWritten;
    private long masterRetryAt;
    private VideoFormat video;
    private boolean playing;
    private final java.net.URI publish;
    private final Map<String, String> publishHeaders;
    private HlsPublisher publisher;
    private final boolean packedAudio;
    private final boolean timedId3;

    /** The publisher close() signalled, for onShutdown() to give its drain the time it has. */
    private HlsPublisher draining;

    /**
     * @param renditions name to an {@link FfmpegEncoder} (encoded here) or an {@link EncodeSource}
     *     (copied)
     */
    HlsOutput(
            Path dir,
            Map<String, Object> renditions,
            Source source,
            double segmentDuration,
            int segments,
            boolean fallible) {
        this(dir, renditions, source, segmentDuration, segments, fallible, null, Map.of());
    }

    HlsOutput(
            Path dir,
            Map<String, Object> renditions,
            Source source,
            double segmentDuration,
            int segments,
            boolean fallible,
            java.net.URI publish,
            Map<String, String> publishHeaders) {
        this(
                dir,
                renditions,
                source,
                segmentDuration,
                segments,
                fallible,
                publish,
                publishHeaders,
                HlsFiles.standard(dir),
                false,
                true);
    }

    /**
     * @param publish the origin's URL for this directory (ending in {@code /}), or null
     * @param packedAudio AAC and MP3 renditions as packed audio segments rather than MPEG-TS
     * @param timedId3 the title and artist in the segments as timed metadata (ID3)
     */
    HlsOutput(
            Path dir,
            Map<String, Object> renditions,
            Source source,
            double segmentDuration,
            int segments,
            boolean fallible,
            java.net.URI publish,
            Map<String, String> publishHeaders,
            HlsFiles files,
            boolean packedAudio,
            boolean timedId3) {
        super("output.file.hls", source, fallible);
        this.files = files;
        this.packedAudio = packedAudio;
        this.timedId3 = timedId3;
        this.publish = publish;
        this.publishHeaders = publishHeaders;
        this.dir = dir;
        this.renditions = renditions;
        this.segmentDuration = segmentDuration;
        this.segments = segments;
    }

    @Override
    protected void prepareOutput(StreamContext context) {
        video = context.video();
        renditions.forEach(
                (name, r) ->
                        variants.add(
                                r instanceof EncodeSource shared
                                        ? new HlsVariant(
                                                name,
                                                shared.encoding(),
                                                shared,
                                                dir,
                                                context.format(),
                                                context.video(),
                                                segmentDuration,
                                                segments,
                                                overhead(),
                                                files.names(),
                                                packedAudio,
                                                timedId3)
                                        : new HlsVariant(
                                                name,
                                                (FfmpegEncoder) r,
                                                null,
                                                dir,
                                                context.format(),
                                                context.video(),
                                                segmentDuration,
                                                segments,
                                                overhead(),
                                                files.names(),
                                                packedAudio,
                                                timedId3)));
    }

    private int overhead() {
        return files.overhead() == null ? segments : Math.max(0, files.overhead());
    }

    @Override
    public String endpoint() {
        return dir.toAbsolutePath().normalize().toString();
    }

    /** A reload: renditions of the same name go on with the previous output's segment numbers. */
    @Override
    protected void adopt(Source previous) {
        HlsOutput p = (HlsOutput) previous;
        if (publisher == null && p.publisher != null && sameOrigin(p)) {
            publisher =
                    p.publisher; // what it knows is on the origin goes on: no file sent twice, none
            // left behind
            p.publisher = null;
            for (HlsVariant v : variants) v.publishTo(publisher);
        }
        // open() left it to the predecessor's, which stopped meanwhile (a failed output): one of
        // its own.
        if (publish != null && publisher == null) startPublisher();
        for (HlsVariant v : variants) {
            for (HlsVariant old : p.variants) {
                if (!old.name().equals(v.name())) continue;
                try {
                    v.continueFrom(old);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(
                            "output.file.hls " + dir + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * Fails at once, with the system's reason, where nothing could be written: a read-only
     * directory.
     */
    @Override
    protected void open() throws IOException {
        try {
            Files.createDirectories(dir);
            files.names().prepare();
            Files.delete(Files.createTempFile(dir, ".groovecast-", ".probe"));
        } catch (FileSystemException e) {
            throw new IOException(
                    "cannot write in "
                            + dir
                            + ": "
                            + (e.getReason() != null
                                    ? e.getReason()
                                    : e.getClass().getSimpleName()),
                    e);
        }
        if (files.persistAt() != null && predecessor() == null) resume();
        // A reload to the same origin takes its predecessor's publisher over in adopt().
        if (publish != null
                && !(predecessor() instanceof HlsOutput p
                        && p.publisher != null
                        && sameOrigin(p))) {
            startPublisher();
        }
    }

    /**
     * Goes on from the state the last run saved, if there is one: its renditions' playlists carry
     * on. The file is deleted once read, as Liquidsoap does, so that a crash never resumes an old
     * state; one that cannot be read is said once and the playlists begin anew.
     */
    private void resume() {
        Path at = files.persistAt();
        if (!Files.exists(at)) return;
        try {
            Map<String, HlsState.Saved> saved = HlsState.read(at);
            for (HlsVariant v : variants) {
                HlsState.Saved s = saved.get(v.name());
                if (s != null) v.resume(s);
            }
            log.info("{}: resuming the playlists saved in {}", id(), at);
        } catch (IOException e) {
            log.info(
                    "{}: cannot resume from {} ({}); the playlists begin anew",
                    id(),
                    at,
                    e.getMessage());
        }
        try {
            Files.deleteIfExists(at);
        } catch (IOException e) {
            log.debug("{}: cannot delete {}: {}", id(), at, e.toString());
        }
    }

    private void startPublisher() {
        // RFC 8216 §6.2.2: a file stays on the origin for its duration and the playlist's once
        // unnamed.
        double target = Math.ceil(segmentDuration);
        publisher =
                new HlsPublisher(
                        publish,
                        publishHeaders,
                        dir,
                        "output.file.hls " + dir,
                        java.time.Duration.ofMillis((long) (target * (segments + 1) * 1000)));
        publisher.start();
        for (HlsVariant v : variants) v.publishTo(publisher);
    }

    /** Whether the files go to an origin now, for tests. */
    boolean publishing() {
        return publisher != null;
    }

    private boolean sameOrigin(HlsOutput p) {
        return publish != null
                && publish.equals(p.publish)
                && publishHeaders.equals(p.publishHeaders);
    }

    @Override
    protected void send(Frame frame) throws IOException {
        if (frame.position() > 0) {
            for (HlsVariant v : variants) v.encode(frame);
            if (!masterWritten
                    && System.nanoTime() >= masterRetryAt
                    && variants.stream().allMatch(HlsVariant::described)) {
                tryMaster();
            }
            playing = true;
        }
        if (playing && frame.position() < frame.size()) {
            for (HlsVariant v : variants) v.interrupt();
            playing = false;
        }
    }

    /**
     * A master playlist that cannot be written (a full disk) is logged once and tried again a
     * second later.
     */
    private void tryMaster() {
        try {
            writeMaster();
            if (masterRetryAt != 0) log.warn("{}: master playlist written", id());
        } catch (IOException e) {
            if (masterRetryAt == 0)
                log.error(
                        "{}: cannot write {} ({}); trying again every second",
                        id(),
                        dir.resolve(files.playlist()),
                        e.toString());
            masterRetryAt = System.nanoTime() + MASTER_RETRY_NANOS;
        }
    }

    private void writeMaster() throws IOException {
        StringBuilder m = new StringBuilder("#EXTM3U\n#EXT-X-VERSION:3\n");
        for (HlsVariant v : variants) {
            String codecs = v.codecs();
            m.append("#EXT-X-STREAM-INF:BANDWIDTH=")
                    .append(v.bandwidth())
                    .append(codecs == null ? "" : ",CODECS=\"" + codecs + '"')
                    .append(
                            v.encoding().video() == null
                                    ? ""
                                    : ",RESOLUTION=" + video.width() + "x" + video.height())
                    .append('\n')
                    .append(v.name())
                    .append(".m3u8\n");
        }
        if (publisher != null) {
            publisher.master(
                    files.playlist(),
                    m.toString(),
                    variants.stream().map(v -> v.name() + ".m3u8").toList());
        }
        Hls.writeAtomically(dir.resolve(files.playlist()), m.toString());
        masterWritten = true;
    }

    @Override
    protected void close() throws IOException {
        IOException first = null;
        if (!masterWritten && playing) tryMaster();
        // A reload hands the playlists over instead; the last output of the station saves them.
        boolean persist =
                files.persistAt() != null && variants.stream().noneMatch(HlsVariant::handedOver);
        for (HlsVariant v : variants) {
            try {
                v.close(persist);
            } catch (IOException e) {
                if (first == null) first = e;
            }
        }
        if (persist) {
            Map<String, HlsState.Saved> saved = new java.util.LinkedHashMap<>();
            for (HlsVariant v : variants) saved.put(v.name(), v.saved());
            try {
                HlsState.write(files.persistAt(), saved);
                log.info("{}: playlists saved in {}", id(), files.persistAt());
            } catch (IOException e) {
                log.error(
                        "{}: cannot save the playlists in {} ({}); the next start begins anew",
                        id(),
                        files.persistAt(),
                        e.toString());
            }
        }
        if (publisher != null) {
            publisher.close(
                    PUBLISH_DRAIN_MILLIS); // returns at once: the clock or the reload does not wait
            // for the origin
            draining = publisher;
            publisher = null;
        }
        if (first != null) throw first;
    }

    /**
     * The station stops (after a reload's new clocks started): its last playlists get their time to
     * go out.
     */
    @Override
    protected void onShutdown() {
        HlsPublisher d = draining;
        if (d != null && !d.awaitDrained(PUBLISH_DRAIN_MILLIS + 1_000)) {
            log.warn("{}: the origin's last requests did not end in time", id());
        }
    }
}
