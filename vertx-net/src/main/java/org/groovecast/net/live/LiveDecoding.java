package org.groovecast.net.live;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.function.Supplier;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.LiveBuffer;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;

/**
 * The decoding side of a live input (a DJ on the harbor, a publisher on RTMP): reads the
 * connection's bytes in direct style on a thread of its own, decodes them and writes the samples to
 * the ring of whichever input owns the connection now (a reload moves it), with tag changes.
 */
public final class LiveDecoding {
    /** Where decoded samples go; looked up for every block, so a reload can hand the feed over. */
    public interface Target {
        LiveBuffer buffer();

        /** The stream's tags changed (an Icecast title, FLV metadata). */
        void tags(Map<String, String> tags);
    }

    private LiveDecoding() {}

    /**
     * Decodes {@code in} until it ends, or until {@code target} answers null, with its video scaled
     * to {@code video} if not null; throws what the decoder throws (the caller logs and
     * disconnects). {@code context} is the live input's, for the decoder's settings (null: their
     * defaults).
     */
    public static void run(
            LiveDecoder decoder,
            InputStream in,
            String contentType,
            AudioFormat format,
            VideoFormat video,
            StreamContext context,
            Supplier<? extends Target> target)
            throws IOException {
        Map<String, String> lastTags = Map.of();
        try (LiveDecoder.Stream stream =
                video == null
                        ? decoder.open(in, contentType, format)
                        : decoder.open(in, contentType, format, video, context)) {
            Frame scratch = new Frame(format, 1024);
            while (true) {
                scratch.clear();
                int n = stream.read(scratch);
                if (n == 0) return;
                Target t = target.get();
                if (t == null) return; // superseded: another decoding feeds the target now
                t.buffer().write(scratch, n);
                Map<String, String> tags = stream.tags();
                if (!tags.equals(lastTags) && !tags.isEmpty()) {
                    lastTags = Map.copyOf(tags);
                    t.tags(lastTags);
                }
            }
        }
    }
}
