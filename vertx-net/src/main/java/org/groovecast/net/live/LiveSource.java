package org.groovecast.net.live;

import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/**
 * A source fed by a live connection (a DJ, a publisher) through a decoding thread: fallible,
 * available while its {@link LiveBuffer} says so, its tags inserted as metadata.
 */
public abstract class LiveSource extends Source implements LiveDecoding.Target {
    private final double bufferSeconds;
    private final double maxSeconds;
    /** Replaced by a reload that hands the connection over, buffer and all. */
    protected volatile LiveBuffer buffer;

    protected LiveSource(String kind, double bufferSeconds, double maxSeconds) {
        super(kind);
        this.bufferSeconds = bufferSeconds;
        this.maxSeconds = maxSeconds;
    }

    /** Whether the connection feeding this source is up now. */
    public abstract boolean isConnected();

    @Override
    protected void onPrepare(StreamContext context) {
        buffer = new LiveBuffer(context.format(), bufferSeconds, maxSeconds);
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
        buffer.read(frame);
    }

    @Override
    public PcmRing ring() {
        return buffer.ring();
    }

    @Override
    public void tags(Map<String, String> tags) {
        insertMetadata(tags);
    }
}
