package org.groovecast.net.live;

import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.LiveBuffer;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;

/**
 * A source fed by a live connection (a DJ, a publisher) through a decoding thread: fallible,
 * available while its {@link LiveBuffer} says so, its tags inserted as metadata.
 */
public abstract class LiveSource extends Source implements LiveDecoding.Target {
    private final double bufferSeconds;
    private final double maxSeconds;

    /** Replaced by a reload that hands the connection over, buffer and all. */
    protected volatile LiveBuffer buffer;

    /**
     * The pictures' format when this input brings video to the graph (see {@link #wantsVideo}),
     * else null.
     */
    protected VideoFormat video;

    protected LiveSource(String kind, double bufferSeconds, double maxSeconds) {
        super(kind);
        this.bufferSeconds = bufferSeconds;
        this.maxSeconds = maxSeconds;
    }

    /** Whether the connection feeding this source is up now. */
    public abstract boolean isConnected();

    /** Whether to decode the stream's video for the graph; audio only by default. */
    protected boolean wantsVideo() {
        return false;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        video = wantsVideo() ? context.video() : null;
        buffer = new LiveBuffer(context.format(), bufferSeconds, maxSeconds, video);
    }

    @Override
    public boolean isReady() {
        LiveBuffer b = buffer;
        return b != null && b.isReady(isConnected());
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    protected void generate(Frame frame) {
        org.groovecast.api.ClockInfo clock = getClock();
        buffer.read(frame, clock == null ? 0 : clock.getTicks());
    }

    @Override
    public LiveBuffer buffer() {
        return buffer;
    }

    @Override
    public void tags(Map<String, String> tags) {
        insertMetadata(tags);
    }
}
