package org.groovecast.core;

import java.util.Arrays;
import java.util.List;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/**
 * Mixes the ready inputs sample by sample, weighted, and divided by the total weight when
 * normalizing. Tracks follow the first input; the others are pulled frame by frame.
 */
final class Add extends Source {
    private final List<Source> inputs;
    private final float[] weights;
    private final boolean normalize;
    private Frame scratch;

    Add(List<Source> inputs, double[] weights, boolean normalize) {
        super("add", inputs);
        this.inputs = inputs;
        this.weights = new float[weights.length];
        for (int i = 0; i < weights.length; i++) this.weights[i] = (float) weights[i];
        this.normalize = normalize;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        scratch = new Frame(context.format(), context.frameSize());
    }

    @Override
    public boolean isReady() {
        for (Source s : inputs) {
            if (s.isReady()) return true;
        }
        return false;
    }

    @Override
    public boolean isFallible() {
        for (Source s : inputs) {
            if (!s.isFallible()) return false;
        }
        return true;
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        int to = frame.end();
        float[][] out = frame.pcm();
        for (float[] plane : out) Arrays.fill(plane, from, to, 0f);
        float total = 0;
        int produced = -1;
        boolean pictured = false;
        for (int i = 0; i < inputs.size(); i++) {
            Source s = inputs.get(i);
            if (!s.isReady()) continue;
            total += weights[i];
            scratch.clear();
            // Align the scratch frame with ours so cached inputs see this tick's positions.
            scratch.limit(to);
            scratch.silence(from);
            int got = fillFrom(s, scratch, to) - from;
            float w = weights[i];
            float[][] in = scratch.pcm();
            for (int c = 0; c < out.length; c++) {
                float[] o = out[c];
                float[] x = in[c];
                for (int k = from; k < from + got; k++) o[k] += w * x[k];
            }
            for (int m = 0; m < scratch.metadataCount(); m++) {
                int at = scratch.metadataPosition(m);
                if (at >= from && at < from + got) frame.addMetadata(at, scratch.metadata(m));
            }
            // Pictures are not mixed: the first input that shows one this tick is the picture.
            if (!pictured && scratch.imageCount() > 0) {
                pictured = true;
                for (int m = 0; m < scratch.imageCount(); m++) {
                    int at = scratch.imagePosition(m);
                    if (at >= from && at < from + got) frame.addImage(at, scratch.image(m));
                }
            }
            if (produced < 0) produced = got;
        }
        if (produced < 0) produced = 0;
        if (normalize && total > 0 && total != 1f) {
            float g = 1f / total;
            for (float[] o : out) {
                for (int k = from; k < from + produced; k++) o[k] *= g;
            }
        }
        frame.advance(produced);
    }

    /**
     * Pulls {@code s} until the scratch frame reaches {@code to} or the input dries up; returns the
     * position.
     */
    private static int fillFrom(Source s, Frame scratch, int to) {
        while (scratch.position() < to && s.isReady()) {
            int before = scratch.position();
            s.get(scratch);
            if (scratch.position() == before) break;
        }
        return scratch.position();
    }
}
