package org.groovecast.transitions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.CallbackScope;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code cross(s, duration:) { a, b -> source }}: the script builds each transition. {@code a} and
 * {@code b} describe the ending and the starting track: {@code a.source} plays the old track's
 * tail, {@code b.source} the new one's head, with {@code metadata} and {@code db} (their RMS level,
 * dBFS). The returned source is played for as long as the longer end; what the function registered
 * on the two ends is released afterwards, so that months of transitions leave no callbacks behind.
 * A function that fails, or returns no source, gives a plain cut (logged once).
 */
final class ScriptMix implements Mix {
    private static final Logger log = LoggerFactory.getLogger(ScriptMix.class);

    /** What the transition function answers where it fails. */
    private static final Object FAILED = new Object();

    private final UserFunction transition;
    private final List<Source> watched = new ArrayList<>();
    private boolean reported;

    ScriptMix(UserFunction transition) {
        this.transition = transition;
    }

    @Override
    public void prepare(Source input) {
        collect(
                input,
                watched); // callbacks the function puts on the station's own sources are released
        // too
    }

    @Override
    public void mix(Ends ends, Frame out, StreamContext context) {
        FrameSource a = new FrameSource("cross.ending", ends.tail());
        FrameSource b = new FrameSource("cross.starting", ends.head());
        Map<String, Object> ending = end(a, ends.oldMetadata(), ends.tail());
        Map<String, Object> starting = end(b, ends.newMetadata(), ends.head());
        CallbackScope.Collected<Object> made;
        try {
            List<Source> scope = new ArrayList<>(watched);
            scope.add(a);
            scope.add(b);
            made = CallbackScope.collect(scope, () -> transition.callOr(FAILED, ending, starting));
        } catch (RuntimeException e) {
            report("the transition function failed: " + e);
            cut(ends, out);
            return;
        }
        try {
            if (!(made.value() instanceof Source s)) {
                // a function that failed was logged by the host: the tracks meet with a cut
                if (made.value() != FAILED)
                    report("the transition function returned " + made.value() + ", not a source");
                cut(ends, out);
                return;
            }
            s.prepare(context);
            List<Source> graph = new ArrayList<>();
            collect(s, graph);
            int len = Math.min(out.size(), Math.max(ends.tailLength(), ends.headLength()));
            // Operators expect frames of the clock's size: render in frames, as ticks would.
            Frame chunk = new Frame(context.format(), context.frameSize());
            boolean ended = false;
            while (out.position() < len && !ended) {
                chunk.clear();
                chunk.limit(Math.min(chunk.size(), len - out.position()));
                for (Source x : graph) x.beforeTick();
                while (!chunk.isFull() && s.isReady()) {
                    int before = chunk.position();
                    s.get(chunk);
                    if (chunk.position() == before) break;
                }
                ended = !chunk.isFull();
                out.copyFrom(chunk, 0, chunk.position());
            }
            s.shutdown();
        } finally {
            made.release();
        }
    }

    private static void collect(Source s, List<Source> out) {
        if (out.contains(s)) return;
        out.add(s);
        for (Source in : s.inputs()) collect(in, out);
    }

    private static Map<String, Object> end(Source source, Object metadata, Frame samples) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", source);
        m.put("metadata", metadata == null ? Map.of() : metadata);
        m.put("db", levelDb(samples));
        return m;
    }

    /** RMS level of the held samples (louder channel), dBFS. */
    static double levelDb(Frame f) {
        int n = f.position();
        double best = 0;
        for (float[] plane : f.pcm()) {
            double sum = 0;
            for (int i = 0; i < n; i++) sum += plane[i] * plane[i];
            best = Math.max(best, n == 0 ? 0 : Math.sqrt(sum / n));
        }
        return best == 0 ? -Double.MAX_VALUE : 20 * Math.log10(best);
    }

    /** No transition: the old tail, then the new head (out holds both: it is twice the overlap). */
    private static void cut(Ends ends, Frame out) {
        out.copyFrom(ends.tail(), 0, ends.tailLength());
        int at = out.position();
        out.copyFrom(ends.head(), 0, Math.min(ends.headLength(), out.free()));
        // the old track's metadata was announced already; keep only the new one's
        out.truncateMetadata(0);
        Frame head = ends.head();
        for (int k = 0; k < head.metadataCount(); k++)
            out.addMetadata(at + head.metadataPosition(k), head.metadata(k));
    }

    private void report(String what) {
        if (!reported) {
            reported = true;
            log.warn("cross(): {}; cutting instead (logged once)", what);
        }
    }
}
