package org.groovecast.core;

import java.time.ZonedDateTime;
import org.groovecast.api.StreamContext;

/**
 * Where the frame being produced lies in the station's time ({@link StreamContext#now()} is its
 * start).
 */
final class FrameTime {
    private FrameTime() {}

    /** The length of one frame in nanoseconds. */
    static long nanos(StreamContext context) {
        return context.frameSize() * 1_000_000_000L / context.format().sampleRate();
    }

    /** The station time at the end of the frame being produced. */
    static ZonedDateTime end(StreamContext context) {
        return context.now().plusNanos(nanos(context));
    }
}
