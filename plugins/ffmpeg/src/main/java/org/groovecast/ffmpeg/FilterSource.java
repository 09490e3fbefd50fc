package org.groovecast.ffmpeg;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/** {@code ffmpeg.filter(s, graph)}: the source through a libavfilter audio graph ({@link AudioFilter}). */
final class FilterSource extends Transform {
    private final String description;
    private AudioFilter filter;

    FilterSource(Source input, String description) {
        super("ffmpeg.filter", input);
        this.description = description;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        try {
            filter = new AudioFilter(description, context.format());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        input.get(frame);
        try {
            filter.process(frame, start, frame.position());
        } catch (IOException e) {
            throw new UncheckedIOException("ffmpeg.filter('" + description + "'): " + e.getMessage(), e);
        }
    }

    @Override
    protected void onShutdown() {
        if (filter != null) filter.close();
        filter = null;
    }
}
