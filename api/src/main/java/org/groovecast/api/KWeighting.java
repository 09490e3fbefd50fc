package org.groovecast.api;

/**
 * The K-weighting of ITU-R BS.1770 for one channel: a high shelf (+4 dB above about 1.7 kHz, the
 * head's effect) then a high pass (about 38 Hz), as two biquads whose coefficients are designed for
 * the stream's sample rate rather than tabulated for 48 kHz.
 */
final class KWeighting {
    private final double b0s, b1s, b2s, a1s, a2s;
    private final double a1h, a2h;
    private double x1s, x2s, y1s, y2s;
    private double y1h, y2h, x1h, x2h;

    KWeighting(int sampleRate) {
        double f0 = 1681.974450955533;
        double gainDb = 3.999843853973347;
        double q = 0.7071752369554196;
        double k = Math.tan(Math.PI * f0 / sampleRate);
        double vh = Math.pow(10, gainDb / 20);
        double vb = Math.pow(vh, 0.4996667741545416);
        double a0 = 1 + k / q + k * k;
        b0s = (vh + vb * k / q + k * k) / a0;
        b1s = 2 * (k * k - vh) / a0;
        b2s = (vh - vb * k / q + k * k) / a0;
        a1s = 2 * (k * k - 1) / a0;
        a2s = (1 - k / q + k * k) / a0;
        double fh = 38.13547087602444;
        double qh = 0.5003270373238773;
        double kh = Math.tan(Math.PI * fh / sampleRate);
        double a0h = 1 + kh / qh + kh * kh;
        a1h = 2 * (kh * kh - 1) / a0h;
        a2h = (1 - kh / qh + kh * kh) / a0h;
    }

    /**
     * Filters samples [from, to) of {@code x} and returns the sum of their squares (the energy
     * BS.1770 averages). The state lives in locals for the loop: a stretch at a time runs several
     * times faster than a call per sample.
     */
    double energy(float[] x, int from, int to) {
        double sx1 = x1s, sx2 = x2s, sy1 = y1s, sy2 = y2s;
        double hx1 = x1h, hx2 = x2h, hy1 = y1h, hy2 = y2h;
        double sum = 0;
        for (int i = from; i < to; i++) {
            double in = x[i];
            double s = b0s * in + b1s * sx1 + b2s * sx2 - a1s * sy1 - a2s * sy2;
            sx2 = sx1;
            sx1 = in;
            sy2 = sy1;
            sy1 = s;
            // The high pass's numerator is 1, -2, 1: its gain normalisation cancels in the
            // loudness.
            double h = s - 2 * hx1 + hx2 - a1h * hy1 - a2h * hy2;
            hx2 = hx1;
            hx1 = s;
            hy2 = hy1;
            hy1 = h;
            sum += h * h;
        }
        x1s = sx1;
        x2s = sx2;
        y1s = sy1;
        y2s = sy2;
        x1h = hx1;
        x2h = hx2;
        y1h = hy1;
        y2h = hy2;
        return sum;
    }
}
