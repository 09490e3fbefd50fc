package org.groovecast.ffmpeg;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.VideoFormat;

/** A request opened and ready to play: its decoder positioned at the cue-in, and its metadata. */
final class Track implements AutoCloseable {
    private final Request request;
    private final MediaDecoder decoder;
    private final Metadata metadata;
    private final long endSample;

    private Track(Request request, MediaDecoder decoder, Metadata metadata, long endSample) {
        this.request = request;
        this.decoder = decoder;
        this.metadata = metadata;
        this.endSample = endSample;
    }

    /** Opens and probes the request's file for its audio; blocking, so only on the blocking pool or at load. */
    static Track open(Request request, AudioFormat format) throws IOException {
        return open(request, format, null, 1);
    }

    /** Opens the request's file with its video, if it has one, scaled to {@code video}; blocking. */
    static Track open(Request request, AudioFormat format, VideoFormat video, int scalingThreads) throws IOException {
        MediaDecoder d = MediaDecoder.open(request.uri(), format, video, scalingThreads);
        try {
            if (request.cueIn() > 0) d.seek(request.cueIn());
            Map<String, String> m = new LinkedHashMap<>(d.tags());
            m.put("filename", request.uri());
            m.putAll(request.annotations());
            long end = request.cueOut() > 0 ? format.samples(request.cueOut()) : -1;
            return new Track(request, d, Metadata.of(m), end);
        } catch (IOException | RuntimeException e) {
            d.close();
            throw e;
        }
    }

    String uri() {
        return request.uri();
    }

    Metadata metadata() {
        return metadata;
    }

    /**
     * Fills the frame from its position, pictures included; fewer samples than it had room for
     * means the track is over. {@code tick} is the clock's tick (pictures of older ticks are reused).
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

    @Override
    public void close() {
        decoder.close();
    }
}
