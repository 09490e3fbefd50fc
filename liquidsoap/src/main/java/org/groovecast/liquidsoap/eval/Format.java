package org.groovecast.liquidsoap.eval;

import java.util.List;

/**
 * An encoder as written, {@code %mp3(bitrate=128)}, {@code %ffmpeg(format="mpegts",
 * %audio(codec="aac"))}: its name and parameters, values evaluated. The engine's bridge turns it
 * into one of the engine's encoders where it is used.
 */
public record Format(String name, List<Param> params) {
    /** {@code label=value}, a flag ({@code stereo}: value null), or a nested format. */
    public record Param(String label, Object value) {}

    /** The value of {@code label}, or null. */
    public Object get(String label) {
        for (Param p : params) if (label.equals(p.label())) return p.value();
        return null;
    }

    public boolean has(String flag) {
        for (Param p : params) {
            if (flag.equals(p.label()) && p.value() == null) return true;
        }
        return false;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("%").append(name);
        if (params.isEmpty()) return b.toString();
        b.append('(');
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            if (i > 0) b.append(", ");
            if (p.label() == null) b.append(p.value());
            else if (p.value() == null) b.append(p.label());
            else b.append(p.label()).append('=').append(Show.value(p.value()));
        }
        return b.append(')').toString();
    }
}
