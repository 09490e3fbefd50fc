package org.groovecast.dsp;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;
import org.groovecast.api.UserFunction;

/**
 * {@code blank.detect(s, threshold: -40, maxBlank: 20) { -> }}: calls the function once each time
 * the source has been silent for {@code maxBlank} seconds (dead air), and again only after sound
 * came back and went again. The audio passes unchanged.
 */
final class BlankDetect extends Transform {
    private final Blank blank;
    private final double maxBlank;
    private final UserFunction onBlank;
    private long limit;
    private boolean fired;

    BlankDetect(Source input, double threshold, double maxBlank, UserFunction onBlank) {
        super("blank.detect", input);
        this.blank = new Blank(threshold);
        this.maxBlank = maxBlank;
        this.onBlank = onBlank;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        limit = Math.max(1, context.samples(maxBlank));
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        input.get(frame);
        long silent = blank.add(frame, start, frame.position());
        if (silent == 0) fired = false;
        if (silent >= limit && !fired) {
            fired = true;
            onBlank.call();
        }
    }
}
