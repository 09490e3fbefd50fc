package org.groovecast.ffmpeg.playlist;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.ResolvedRequest;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.autocue.TrackAnalysis;
import org.groovecast.ffmpeg.decode.MediaDecoder;

/**
 * A request opened and ready to play: its decoder positioned at the cue-in, and its metadata. It
 * owns the resolved request: closing the track deletes the file if the resolution made it
 * temporary.
 */
final class Track implements AutoCloseable {
    private final Request request;
    private final ResolvedRequest resolved;
    private final MediaDecoder decoder;
    private final Metadata metadata;
    private final long endSample;
    private final TrackAnalysis analysis;

    private Track(
            Request request,
            ResolvedRequest resolved,
            MediaDecoder decoder,
            Metadata metadata,
            long endSample,
            TrackAnalysis analysis) {
        this.request = request;
        this.analysis = analysis;
        this.resolved = resolved;
        this.decoder = decoder;
        this.metadata = metadata;
        this.endSample = endSample;
    }

    /**
     * Opens the resolved file with its video, if it has one, scaled to {@code video}; blocking, so
     * only on the blocking pool or at load. On failure nothing is kept open and {@code resolved} is
     * left to the caller.
     */
    static Track open(
            Request request,
            ResolvedRequest resolved,
            AudioFormat format,
            VideoFormat video,
            int scalingThreads)
            throws IOException {
        return open(request, resolved, format, video, scalingThreads, TrackAnalysis.NONE);
    }

    /**
     * {@link #open(Request, ResolvedRequest, AudioFormat, VideoFormat, int)}, with what {@code
     * analysis} finds in the file (autocue, computed ReplayGain) laid over the metadata before the
     * cues are read: on the blocking pool, so the file's measurement (one decode, cached) delays
     * only this request.
     */
    static Track open(
            Request request,
            ResolvedRequest resolved,
            AudioFormat format,
            VideoFormat video,
            int scalingThreads,
            TrackAnalysis analysis)
            throws IOException {
        MediaDecoder d = MediaDecoder.open(resolved.file(), format, video, scalingThreads);
        try {
            Map<String, String> m = new LinkedHashMap<>(d.tags());
            m.put("filename", resolved.file());
            m.putAll(request.annotations()); // a playlist's #EXTINF over the file's tags,
            m.putAll(resolved.metadata()); // the URI's annotate: over both
            m.putAll(analysis.of(resolved.file(), Metadata.of(m)));
            Metadata metadata = Metadata.of(m);
            double cueIn = seconds(metadata, "liq_cue_in", 0);
            double cueOut = seconds(metadata, "liq_cue_out", -1);
            if (cueIn > 0) d.seek(cueIn);
            long end = cueOut > 0 ? format.samples(cueOut) : -1;
            return new Track(request, resolved, d, metadata, end, analysis);
        } catch (IOException | RuntimeException e) {
            d.close();
            throw e;
        }
    }

    private static double seconds(Metadata m, String key, double absent) {
        String v = m.get(key);
        if (v == null) return absent;
        try {
            return Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            return absent;
        }
    }

    /** The request as its source chose it. */
    Request request() {
        return request;
    }

    String uri() {
        return request.uri();
    }

    Metadata metadata() {
        return metadata;
    }

    /**
     * Fills the frame from its position, pictures included; fewer samples than it had room for
     * means the track is over. {@code tick} is the clock's tick (pictures of older ticks are
     * reused).
     */
    int read(Frame frame, long tick) throws IOException {
        int max = frame.free();
        if (endSample >= 0) max = (int) Math.max(0, Math.min(max, endSample - decoder.position()));
        return max == 0 ? 0 : decoder.read(frame, max, tick);
    }

    /** Samples left, from the container's duration or the cue-out; -1 when unknown. */
    long remaining(AudioFormat format) {
        long end = endSample;
        if (end < 0 && decoder.duration() > 0) end = format.samples(decoder.duration());
        return end < 0 ? -1 : Math.max(0, end - decoder.position());
    }

    /**
     * Closes the decoder but keeps the file: the track was checked and waits for its turn, to be
     * opened again.
     */
    Parked park() {
        decoder.close();
        return new Parked(request, resolved, analysis);
    }

    /** Closes the decoder and lets the file go (a temporary one is deleted). */
    @Override
    public void close() {
        try {
            decoder.close();
        } finally {
            resolved.close();
        }
    }

    /** A track checked and closed until its turn: its request and the file it resolved to. */
    record Parked(Request request, ResolvedRequest resolved, TrackAnalysis analysis) {
        Track reopen(AudioFormat format, VideoFormat video, int scalingThreads) throws IOException {
            return Track.open(request, resolved, format, video, scalingThreads, analysis);
        }

        /** It will not play: its file goes (a temporary one is deleted). */
        void discard() {
            resolved.close();
        }
    }
}
