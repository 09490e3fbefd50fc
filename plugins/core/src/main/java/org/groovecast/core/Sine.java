package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.StreamContext;

/** An endless sine tone, the same on every channel. */
final class Sine extends Generator {
    private final double frequency;
    private final float amplitude;
    private double phase;
    private double step;

    Sine(double frequency, double amplitude) {
        super("sine");
        this.frequency = frequency;
        this.amplitude = (float) amplitude;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        step = 2 * Math.PI * frequency / context.format().sampleRate();
    }

    @Override
    protected void generate(Frame frame) {
        float[][] pcm = frame.pcm();
        int from = frame.position();
        int to = frame.end();
        float[] first = pcm[0];
        double ph = phase;
        for (int i = from; i < to; i++) {
            first[i] = amplitude * (float) Math.sin(ph);
            ph += step;
        }
        phase = ph % (2 * Math.PI);
        for (int c = 1; c < pcm.length; c++) System.arraycopy(first, from, pcm[c], from, to - from);
        frame.advance(to - from);
    }
}
