package org.groovecast.transitions;

import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;

/**
 * Per-track settings from metadata ({@code liq_fade_in="2.5"}), as Liquidsoap's annotate: protocol
 * sets them.
 */
final class Overrides {
    private Overrides() {}

    /** The metadata attached at {@code position} of {@code frame} (a track's first), or null. */
    static Metadata at(Frame frame, int position) {
        Metadata found = null;
        for (int i = 0; i < frame.metadataCount(); i++) {
            if (frame.metadataPosition(i) == position)
                found = found == null ? frame.metadata(i) : found.with(frame.metadata(i));
        }
        return found;
    }

    /** Seconds from {@code key} in {@code m}, or {@code fallback} when absent or not a number. */
    static double seconds(Metadata m, String key, double fallback) {
        String v = m == null ? null : m.get(key);
        if (v == null) return fallback;
        try {
            double d = Double.parseDouble(v.trim());
            return d >= 0 && Double.isFinite(d) ? d : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    static Curve curve(Metadata m, String key, Curve fallback) {
        Curve c = m == null ? null : Curve.named(m.get(key));
        return c != null ? c : fallback;
    }
}
