package org.groovecast.transitions;

import org.groovecast.api.Frame;
import org.groovecast.api.StreamContext;

/**
 * The usual crossfade: the old track falls over {@code fadeOut} seconds to its end while the new
 * one rises over {@code fadeIn}, overlapping; a track's {@code liq_fade_out} / {@code liq_fade_in}
 * override. A next track shorter than the overlap is laid at the end of the old one's tail, which
 * stays loud until then, rather than fading both into a gap of near silence.
 */
final class FadeMix implements Mix {
    private final double fadeIn;
    private final double fadeOut;
    private final Curve curve;

    FadeMix(double fadeIn, double fadeOut, Curve curve) {
        this.fadeIn = fadeIn;
        this.fadeOut = fadeOut;
        this.curve = curve;
    }

    @Override
    public void mix(Ends ends, Frame mixed, StreamContext context) {
        int tailLen = ends.tailLength();
        int headLen = ends.headLength();
        long out =
                Math.min(
                        tailLen,
                        context.samples(
                                Overrides.seconds(ends.oldMetadata(), "liq_fade_out", fadeOut)));
        long in = context.samples(Overrides.seconds(ends.newMetadata(), "liq_fade_in", fadeIn));
        int offset = 0;
        if (ends.headEnded() && headLen < tailLen) {
            offset = tailLen - headLen;
            out = Math.min(out, headLen);
            in = Math.min(in, headLen / 2);
        }
        int len = Math.max(tailLen, offset + headLen);
        float[][] dst = mixed.pcm();
        float[][] a = ends.tail().pcm();
        float[][] b = ends.head().pcm();
        for (int i = 0; i < len; i++) {
            long left = tailLen - i; // samples of the old track from this one on
            int j = i - offset; // sample of the new track, when it has begun
            float gOut =
                    i >= tailLen
                            ? 0f
                            : left > out
                                    ? 1f
                                    : (float) curve.gain((left - 1) / (double) Math.max(1, out));
            float gIn =
                    j < 0 || j >= headLen
                            ? 0f
                            : j >= in ? 1f : (float) curve.gain(j / (double) Math.max(1, in));
            for (int c = 0; c < dst.length; c++) {
                float x = i < tailLen ? a[c][i] * gOut : 0f;
                float y = gIn == 0f ? 0f : b[c][j] * gIn;
                dst[c][i] = x + y;
            }
        }
        // Only the new track's metadata, where it becomes audible: the old one's was announced when
        // it began.
        Frame head = ends.head();
        for (int k = 0; k < head.metadataCount(); k++)
            mixed.addMetadata(offset + head.metadataPosition(k), head.metadata(k));
        mixed.advance(len);
    }
}
