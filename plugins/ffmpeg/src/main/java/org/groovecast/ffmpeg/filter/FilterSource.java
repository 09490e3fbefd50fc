package org.groovecast.ffmpeg.filter;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code ffmpeg.filter(s, graph)}: the source through a libavfilter audio graph ({@link
 * AudioFilter}).
 */
final class FilterSource extends Transform {
    private final String description;
    private final String videoDescription;
    private AudioFilter filter;
    private VideoFilter video;

    /**
     * @param description the audio graph, or null; @param videoDescription the video graph, or null
     */
    FilterSource(Source input, String description, String videoDescription) {
        super("ffmpeg.filter", input);
        this.description = description;
        this.videoDescription = videoDescription;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        try {
            if (description != null) filter = new AudioFilter(description, context.format());
            if (videoDescription != null)
                video = new VideoFilter(videoDescription, context.video());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        input.get(frame);
        try {
            if (filter != null) filter.process(frame, start, frame.position());
            if (video != null) video.process(frame, start);
        } catch (IOException e) {
            throw new UncheckedIOException("ffmpeg.filter(): " + e.getMessage(), e);
        }
    }

    @Override
    protected void onShutdown() {
        if (filter != null) filter.close();
        if (video != null) video.close();
        filter = null;
        video = null;
    }
}
