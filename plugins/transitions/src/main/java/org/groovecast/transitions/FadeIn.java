package org.groovecast.transitions;

import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code fade.in(s, duration:, type:)}: each track starts silent and rises to full level over
 * {@code duration} seconds along the curve; a track's {@code liq_fade_in} and {@code
 * liq_fade_in_type} metadata override both.
 */
final class FadeIn extends Transform {
    private final double duration;
    private final Curve curve;
    private StreamContext context;
    private long position;
    private long length;
    private Curve trackCurve;
    private boolean trackStart = true;

    FadeIn(Source input, double duration, Curve curve) {
        super("fade.in", input);
        this.duration = duration;
        this.curve = curve;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        this.context = context;
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        int end = frame.end();
        input.get(frame);
        int got = frame.position() - start;
        if (trackStart && got > 0) {
            trackStart = false;
            Metadata m = Overrides.at(frame, start);
            length = context.samples(Overrides.seconds(m, "liq_fade_in", duration));
            trackCurve = Overrides.curve(m, "liq_fade_in_type", curve);
            position = 0;
        }
        if (position < length) {
            float[][] pcm = frame.pcm();
            int n = (int) Math.min(got, length - position);
            for (int i = 0; i < n; i++) {
                float g = (float) trackCurve.gain((double) (position + i) / length);
                for (float[] plane : pcm) plane[start + i] *= g;
            }
        }
        position += got;
        if (frame.position() < end) trackStart = true; // the input's track ended here
    }
}
