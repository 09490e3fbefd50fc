package org.groovecast.testkit;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;

/**
 * Runs a source as its clock would, one tick at a time: prepared once on a {@link TestContext},
 * then for every frame {@code beforeTick()} on each source of its graph, {@code get} until the
 * frame is full or the source is not ready (as an output pulls), {@code afterTick()}, and the
 * context's {@link TestContext#tick()}.
 *
 * <pre>{@code
 * FramePuller puller = new FramePuller(myOperator, TestContext.standard());
 * Pulled first = puller.pull(50);        // the first second: 50 frames of 20 ms
 * Pulled next = puller.pullSeconds(2);  // the two seconds after it
 * }</pre>
 *
 * <p>The puller is one consumer of its source: build a fresh graph for each puller, since a source
 * prepared twice counts two consumers and serves them from a cached frame.
 */
public final class FramePuller {
    /** As the host's outputs: a few empty gets in a row mean the source has nothing now. */
    private static final int MAX_EMPTY_GETS = 4;

    private final Source source;
    private final TestContext context;
    private final List<Source> graph = new ArrayList<>();
    private final Frame frame;
    private boolean trackStarting = true;

    /** Prepares {@code source} (and so its inputs) on {@code context}. */
    public FramePuller(Source source, TestContext context) {
        this.source = source;
        this.context = context;
        source.prepare(context);
        collect(source, new IdentityHashMap<>());
        frame = new Frame(context.format(), context.frameSize());
    }

    /** A puller on a {@link TestContext#standard()} context. */
    public FramePuller(Source source) {
        this(source, TestContext.standard());
    }

    private void collect(Source s, Map<Source, Boolean> seen) {
        if (seen.put(s, Boolean.TRUE) != null) return;
        graph.add(s);
        for (Source in : s.inputs()) collect(in, seen);
    }

    public Source source() {
        return source;
    }

    public TestContext context() {
        return context;
    }

    /** Pulls enough frames to cover {@code seconds} of stream (rounded up to whole frames). */
    public Pulled pullSeconds(double seconds) {
        long samples = context.samples(seconds);
        return pull((int) ((samples + context.frameSize() - 1) / context.frameSize()));
    }

    /** Pulls {@code frames} frames and returns what the source produced in them. */
    public Pulled pull(int frames) {
        if (frames < 0) throw new IllegalArgumentException("frames must be >= 0, got " + frames);
        int size = context.frameSize();
        float[][] pcm = new float[context.format().channels()][Math.multiplyExact(frames, size)];
        List<Integer> starts = new ArrayList<>();
        List<MetadataAt> metadata = new ArrayList<>();
        int produced = 0;
        for (int f = 0; f < frames; f++) {
            int offset = f * size;
            for (Source s : graph) s.beforeTick();
            fill(offset, starts);
            for (int c = 0; c < pcm.length; c++)
                System.arraycopy(frame.channel(c), 0, pcm[c], offset, frame.position());
            for (int i = 0; i < frame.metadataCount(); i++) {
                metadata.add(
                        new MetadataAt(f, offset + frame.metadataPosition(i), frame.metadata(i)));
            }
            produced += frame.position();
            for (Source s : graph) s.afterTick();
            context.tick();
        }
        return new Pulled(context.format(), frames, pcm, produced, starts, metadata);
    }

    /** One frame's gets, noting where tracks start. */
    private void fill(int offset, List<Integer> starts) {
        frame.clear();
        int empty = 0;
        while (!frame.isFull() && source.isReady()) {
            int before = frame.position();
            source.get(frame);
            int after = frame.position();
            if (after > before) {
                if (trackStarting) starts.add(offset + before);
                trackStarting = false;
                empty = 0;
            } else if (++empty == MAX_EMPTY_GETS) {
                break;
            }
            if (after < frame.end()) trackStarting = true; // stopped short: the track ended here
        }
        if (!frame.isFull())
            trackStarting = true; // not ready: the frame, and so the track, ends short
    }
}
