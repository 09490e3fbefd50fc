package org.groovecast.transitions;

import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code fade.out(s, duration:, type:)}: the last {@code duration} seconds of each track fall to
 * silence along the curve. It needs to know where a track ends, so it fades tracks whose source
 * says how much remains (files, cut tracks); others end unfaded. {@code liq_fade_out} and {@code
 * liq_fade_out_type} in a track's metadata override the settings.
 */
final class FadeOut extends Transform {
    private final double duration;
    private final Curve curve;
    private StreamContext context;
    private long length;
    private Curve trackCurve;
    private boolean trackStart = true;

    FadeOut(Source input, double duration, Curve curve) {
        super("fade.out", input);
        this.duration = duration;
        this.curve = curve;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        this.context = context;
        this.length = context.samples(duration);
        this.trackCurve = curve;
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        int end = frame.end();
        long remaining = input.remainingFor(frame);
        input.get(frame);
        int got = frame.position() - start;
        if (trackStart && got > 0) {
            trackStart = false;
            Metadata m = Overrides.at(frame, start);
            length = context.samples(Overrides.seconds(m, "liq_fade_out", duration));
            trackCurve = Overrides.curve(m, "liq_fade_out_type", curve);
            remaining =
                    input.remaining() < 0
                            ? -1
                            : input.remaining() + got; // known once the track began
        }
        if (remaining >= 0 && length > 0) {
            float[][] pcm = frame.pcm();
            for (int i = 0; i < got; i++) {
                long left = remaining - i; // samples of the track from this one to its end
                if (left >= length) continue;
                float g = (float) trackCurve.gain(Math.max(0, left - 1) / (double) length);
                for (float[] plane : pcm) plane[start + i] *= g;
            }
        }
        if (frame.position() < end) trackStart = true;
    }
}
