package org.groovecast.dsp;

import org.groovecast.api.ClockInfo;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/**
 * {@code blank.strip(s, threshold: -40, maxBlank: 20)}: unavailable once its source has been silent
 * for {@code maxBlank} seconds, so that a fallback moves to its backup; available again as soon as
 * sound returns. While stripped nobody pulls it, so it listens by itself: each tick in which it is
 * asked whether it is ready, it reads one frame of its source, and keeps it to play first if it is
 * not silent.
 */
final class BlankStrip extends Source {
    private final Source input;
    private final Blank blank;
    private final double maxBlank;
    private long limit;
    private ClockInfo clock;
    private Frame held;
    private int heldAt;
    private int heldEnd;
    private boolean stripped;
    private long listenedAt = -1;

    BlankStrip(Source input, double threshold, double maxBlank) {
        super("blank.strip", input);
        this.input = input;
        this.blank = new Blank(threshold);
        this.maxBlank = maxBlank;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        limit = Math.max(1, context.samples(maxBlank));
        clock = context.clock();
        held = new Frame(context.format(), context.frameSize());
    }

    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    public boolean isReady() {
        if (heldAt < heldEnd) return true;
        if (!stripped) return input.isReady();
        long tick = clock.getTicks();
        if (tick != listenedAt && input.isReady()) {
            listenedAt = tick;
            held.clear();
            while (!held.isFull() && input.isReady()) {
                int before = held.position();
                input.get(held);
                if (held.position() == before) break;
            }
            heldAt = 0;
            heldEnd = held.position();
            if (blank.add(held, 0, heldEnd) == 0) {
                stripped = false; // sound again: play what was just heard, then carry on
            } else {
                heldEnd = 0; // still silent: drop it
            }
        }
        return !stripped;
    }

    @Override
    public long remaining() {
        return stripped ? 0 : input.remaining();
    }

    @Override
    protected void generate(Frame frame) {
        if (heldAt < heldEnd) {
            int n = Math.min(frame.free(), heldEnd - heldAt);
            frame.copyFrom(held, heldAt, heldAt + n);
            heldAt += n;
            if (frame.isFull() || !input.isReady()) return;
        }
        int from = frame.position();
        input.get(frame);
        if (blank.add(frame, from, frame.position()) >= limit) {
            stripped = true; // this frame still plays; the next tick the fallback looks elsewhere
            blank.reset();
        }
    }
}
