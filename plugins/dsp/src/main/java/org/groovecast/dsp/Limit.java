package org.groovecast.dsp;

import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code limit(s, threshold: -1, lookahead: 5, release: 50)}: a look-ahead peak limiter. The signal
 * is delayed by {@code lookahead} ms; the gain each peak needs is known that long before it plays,
 * and the gain curve (minimum over the look-ahead window, then averaged over it) has reached it by
 * then, so no sample exceeds the threshold and the gain never steps. Peaks between samples (what a
 * DAC or an encoder will make of them) are estimated by cubic interpolation at three points between
 * every two samples: true-peak safe within a fraction of a dB.
 */
final class Limit extends Transform {
    private final double thresholdDb;
    private final double lookaheadMs;
    private final double releaseMs;
    private float ceiling;
    private int window;
    private float[][] delay;
    private float[] required;
    private int[] minQueue;
    private int qHead;
    private int qTail;
    private double[] held;
    private double heldSum;
    private double lastHeld = 1;
    private double release;
    private long t;

    /** The three samples before the current one, per channel, across frames. */
    private float[][] previous;

    Limit(Source input, double thresholdDb, double lookaheadMs, double releaseMs) {
        super("limit", input);
        this.thresholdDb = thresholdDb;
        this.lookaheadMs = lookaheadMs;
        this.releaseMs = releaseMs;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        int rate = context.format().sampleRate();
        ceiling = (float) Math.pow(10, thresholdDb / 20);
        window = Math.max(1, (int) Math.round(lookaheadMs / 1000 * rate));
        delay = new float[context.format().channels()][window];
        // The minimum covers window + 1 samples: the sample leaving the delay line and the window
        // after it.
        required = new float[window + 1];
        minQueue = new int[window + 2];
        previous = new float[context.format().channels()][3];
        held = new double[window];
        java.util.Arrays.fill(held, 1);
        java.util.Arrays.fill(required, 1);
        heldSum = window;
        release = Math.exp(-1 / (Math.max(1, releaseMs) / 1000 * rate));
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        input.get(frame);
        float[][] pcm = frame.pcm();
        for (int i = start, end = frame.position(); i < end; i++) {
            float peak = 0;
            for (float[] plane : pcm) peak = Math.max(peak, Math.abs(plane[i]));
            peak = Math.max(peak, interSamplePeak(pcm, i));
            float need = peak > ceiling ? ceiling / peak : 1f;
            int slot = (int) (t % window);
            required[(int) (t % required.length)] = need;
            // Sliding minimum of the required gain over the look-ahead window (monotonic queue of
            // times).
            while (qTail > qHead
                    && required[(int) (minQueue[(qTail - 1) % minQueue.length] % required.length)]
                            >= need
                    && isLive(minQueue[(qTail - 1) % minQueue.length])) {
                qTail--;
            }
            minQueue[qTail++ % minQueue.length] = (int) t;
            while (!isLive(minQueue[qHead % minQueue.length])) qHead++;
            double min = required[(int) (minQueue[qHead % minQueue.length] % required.length)];
            // Recover slowly (release), fall at once; then average over the window so the fall is a
            // ramp.
            double h = Math.min(min, 1 - (1 - lastHeld) * release);
            lastHeld = h;
            heldSum += h - held[slot];
            held[slot] = h;
            float g = (float) Math.min(1, heldSum / window);
            for (int c = 0; c < pcm.length; c++) {
                float out = delay[c][slot];
                delay[c][slot] = pcm[c][i];
                pcm[c][i] = out * g;
            }
            t++;
        }
    }

    private boolean isLive(int time) {
        return time >= t - window;
    }

    /**
     * The largest |x| between the previous sample and this one, by cubic interpolation
     * (Catmull-Rom).
     */
    private float interSamplePeak(float[][] pcm, int i) {
        float best = 0;
        for (int c = 0; c < pcm.length; c++) {
            float[] p = previous[c];
            float x0 = p[0];
            float x1 = p[1];
            float x2 = p[2];
            float x3 = pcm[c][i];
            for (int k = 1; k <= 3; k++) {
                float u = k / 4f;
                // Between x1 and x2, the last two samples with a neighbour on each side: one sample
                // late, which the look-ahead window covers.
                float v =
                        0.5f
                                * (2 * x1
                                        + (-x0 + x2) * u
                                        + (2 * x0 - 5 * x1 + 4 * x2 - x3) * u * u
                                        + (-x0 + 3 * x1 - 3 * x2 + x3) * u * u * u);
                best = Math.max(best, Math.abs(v));
            }
            p[0] = x1;
            p[1] = x2;
            p[2] = x3;
        }
        return best;
    }
}
