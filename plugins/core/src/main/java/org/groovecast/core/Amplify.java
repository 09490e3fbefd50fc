package org.groovecast.core;

import java.util.function.DoubleSupplier;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.Transform;

/**
 * Multiplies the signal by a factor: a constant, or one read again at every frame (a script
 * function, an interactive variable) so that a station can follow a control. With an {@code
 * override} key, a track whose metadata has that key ({@code liq_amplify="0.5"}, {@code
 * replaygain_track_gain="-6.5 dB"}) is multiplied by its value too, until the track ends.
 */
final class Amplify extends Transform {
    private final DoubleSupplier factor;
    private final String override;
    private float current;
    private float trackGain = 1f;

    Amplify(DoubleSupplier factor, Source source) {
        this(factor, source, null);
    }

    /**
     * @param override the metadata key of a per-track gain, or null for none
     */
    Amplify(DoubleSupplier factor, Source source, String override) {
        super("amplify", source);
        this.factor = factor;
        this.override = override;
        this.current = (float) factor.getAsDouble();
    }

    /**
     * A gain as metadata writes it: a plain factor ({@code 0.5}) or decibels ({@code -6 dB}); null
     * if neither.
     */
    static Float parseGain(String v) {
        if (v == null) return null;
        String s = v.trim().toLowerCase(java.util.Locale.ROOT);
        boolean db = s.endsWith("db");
        if (db) s = s.substring(0, s.length() - 2).trim();
        try {
            double x = Double.parseDouble(s);
            if (!Double.isFinite(x)) return null;
            return (float) (db ? Math.pow(10, x / 20) : x);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        int end = frame.end();
        int metadataBefore = frame.metadataCount();
        input.get(frame);
        int to = frame.position();
        if (override != null) {
            for (int i = metadataBefore; i < frame.metadataCount(); i++) {
                Float g = parseGain(frame.metadata(i).get(override));
                if (g != null) trackGain = g;
            }
        }
        float next = (float) factor.getAsDouble() * trackGain;
        if (override != null && to < end)
            trackGain = 1f; // the track ended: the next one has its own
        if (next == current) {
            for (float[] plane : frame.pcm()) {
                for (int i = from; i < to; i++) plane[i] *= next;
            }
            return;
        }
        // A new factor ramps in over this frame: a jump from one sample to the next would click.
        float step = (next - current) / Math.max(1, to - from);
        for (float[] plane : frame.pcm()) {
            for (int i = from; i < to; i++) plane[i] *= current + step * (i - from + 1);
        }
        if (to > from) current = next;
    }
}
