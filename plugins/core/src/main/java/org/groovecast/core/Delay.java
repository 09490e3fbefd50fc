package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code delay(seconds, s)}: after each track of its source ends, unavailable for that long (a
 * jingle at most every 15 minutes: {@code fallback(delay(900, jingles), music)}). It is available
 * at first, counts in the clock's stream time, and becomes available again at the first frame that
 * starts at least {@code seconds} after the end of the track. A track cut by a switch or a skip
 * counts as ended where the cut happens.
 */
final class Delay extends Transform {
    private final double seconds;
    private long delaySamples;
    private volatile boolean playing;
    private volatile long readyAt = Long.MIN_VALUE;

    Delay(double seconds, Source source) {
        super("delay", source);
        this.seconds = seconds;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        delaySamples = context.samples(seconds);
    }

    @Override
    public boolean isReady() {
        return (playing || frameStart() >= readyAt) && input.isReady();
    }

    /** Available only between delays. */
    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    public void abortTrack() {
        super.abortTrack();
        if (playing) ended(0);
    }

    @Override
    protected void generate(Frame frame) {
        boolean starting = !playing;
        playing = true;
        int before = frame.position();
        input.get(frame);
        if (starting && frame.position() == before && input.isReady()) {
            input.get(
                    frame); // the input still owed the end of a track that was cut before it played
            // on
        }
        if (frame.position() < frame.end() || frame.position() == before) ended(frame.position());
    }

    private void ended(int position) {
        playing = false;
        readyAt = frameStart() + position + delaySamples;
    }

    /** Stream position, in samples, of the start of the frame being produced. */
    private long frameStart() {
        StreamContext c = context();
        return c == null ? 0 : c.clock().getTicks() * c.frameSize();
    }
}
