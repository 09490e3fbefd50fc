package org.groovecast.dsp;

import org.groovecast.api.Frame;
import org.groovecast.api.LoudnessMeter;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code lufs(s)}: passes its source through and measures it (EBU R128); scripts read {@code
 * m.momentary}, {@code m.shortTerm} and {@code m.integrated} (LUFS) at any time.
 */
final class Lufs extends Transform {
    private volatile LoudnessMeter meter;

    Lufs(Source input) {
        super("lufs", input);
    }

    @Override
    protected void onPrepare(StreamContext context) {
        meter = new LoudnessMeter(context.format().channels(), context.format().sampleRate());
    }

    @Override
    protected void generate(Frame frame) {
        int start = frame.position();
        input.get(frame);
        meter.add(frame.pcm(), start, frame.position());
    }

    @Override
    public java.util.Map<String, Object> readings() {
        return java.util.Map.of(
                "momentary",
                round(getMomentary()),
                "shortTerm",
                round(getShortTerm()),
                "integrated",
                round(getIntegrated()));
    }

    private static Object round(double lufs) {
        return Double.isInfinite(lufs) ? "-inf" : Math.round(lufs * 100) / 100.0;
    }

    // Read from any thread: a figure at most one frame old is fine for a meter.
    public double getMomentary() {
        return meter == null ? Double.NEGATIVE_INFINITY : meter.momentary();
    }

    public double getShortTerm() {
        return meter == null ? Double.NEGATIVE_INFINITY : meter.shortTerm();
    }

    public double getIntegrated() {
        return meter == null ? Double.NEGATIVE_INFINITY : meter.integrated();
    }
}
