package org.groovecast.dsp;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code blank.skip(s, threshold: -40, maxBlank: 20)}: ends the current track once it has been
 * silent for {@code maxBlank} seconds (a file with a long silent tail, a dead request).
 */
final class BlankSkip extends Transform {
    private final Blank blank;
    private final double maxBlank;
    private long limit;
    private boolean endPending;
    private boolean restarting;

    BlankSkip(Source input, double threshold, double maxBlank) {
        super("blank.skip", input);
        this.blank = new Blank(threshold);
        this.maxBlank = maxBlank;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        limit = Math.max(1, context.samples(maxBlank));
    }

    @Override
    protected void generate(Frame frame) {
        if (endPending) {
            endPending = false; // an empty get: our track ends where the frame before ended
            restarting = true;
            return;
        }
        int start = frame.position();
        int end = frame.end();
        input.get(frame);
        if (restarting && frame.position() == start && input.isReady()) {
            input.get(frame); // the skipped track's own end, owed by the input: the next one starts
        }
        restarting = false;
        if (frame.position() < end) {
            blank.reset(); // the track ended by itself
            return;
        }
        if (blank.add(frame, start, frame.position()) >= limit) {
            blank.reset();
            input.abortTrack(); // its next get starts the next track
            endPending = true;
        }
    }
}
