package com.example.widener;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.Transform;

/**
 * Widens (width > 1) or narrows (width < 1) the stereo image: the side signal (L - R) / 2 is scaled
 * by {@code width}, the mid (L + R) / 2 kept. Width 0 is mono, 1 leaves the audio as it is. Mono
 * streams pass through. Runs on the clock thread, allocates nothing per frame.
 */
final class Widener extends Transform {
    private final float width;

    Widener(Source input, double width) {
        super("example.widen", input);
        this.width = (float) width;
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        input.get(frame); // the input writes from our position on; we rework what it wrote
        if (frame.format().channels() != 2) return;
        float[] left = frame.channel(0);
        float[] right = frame.channel(1);
        for (int i = from, end = frame.position(); i < end; i++) {
            float mid = (left[i] + right[i]) / 2;
            float side = (left[i] - right[i]) / 2 * width;
            left[i] = mid + side;
            right[i] = mid - side;
        }
    }
}
