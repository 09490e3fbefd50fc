package org.groovecast.core;

import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.Transform;
import org.groovecast.api.UserFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites each metadata passing through with a script function. With {@code update} the result is
 * merged into the original, otherwise it replaces it; with {@code strip} empty values are removed,
 * and metadata left empty is dropped.
 */
final class MetadataMap extends Transform {
    private static final Logger log = LoggerFactory.getLogger(MetadataMap.class);
    private static final long REPORT_NANOS = 5_000_000_000L;

    /** What a call of the function answers where it fails: the metadata then passes unchanged. */
    private static final Object FAILED = new Object();

    private final UserFunction mapper;
    private final boolean update;
    private final boolean strip;

    /**
     * When a failure of the function was last logged (System.nanoTime), 0 for never; on the clock's
     * thread.
     */
    private long reportedAt;

    MetadataMap(Source source, UserFunction mapper, boolean update, boolean strip) {
        super("metadata.map", source);
        this.mapper = mapper;
        this.update = update;
        this.strip = strip;
    }

    @Override
    protected void generate(Frame frame) {
        int mdStart = frame.metadataCount();
        input.get(frame);
        int count = frame.metadataCount();
        if (count == mdStart) return;
        // Rewrite in place: collect, then re-add in order, skipping dropped ones.
        Metadata[] mapped = new Metadata[count - mdStart];
        int[] positions = new int[count - mdStart];
        for (int i = mdStart; i < count; i++) {
            positions[i - mdStart] = frame.metadataPosition(i);
            mapped[i - mdStart] = mapOrKeep(frame.metadata(i));
        }
        frame.truncateMetadata(mdStart);
        for (int i = 0; i < mapped.length; i++) {
            if (mapped[i] != null) frame.addMetadata(positions[i], mapped[i]);
        }
    }

    /**
     * The script's function runs on the clock: one that fails (a mistake, an http call refused
     * there) leaves the metadata as it came, and the stream goes on; the host logs its failure. One
     * that answers what is not a map is logged here, at most every 5 s.
     */
    private Metadata mapOrKeep(Metadata m) {
        try {
            return map(m);
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            if (reportedAt == 0 || now - reportedAt >= REPORT_NANOS) {
                reportedAt = now;
                log.error(
                        "{}: the function failed, the metadata passes unchanged: {}",
                        id(),
                        e.getMessage());
            }
            return m;
        }
    }

    private Metadata map(Metadata m) {
        Object r = mapper.callOr(FAILED, m);
        if (r == FAILED) return m;
        if (r == null) return update ? m : null;
        if (!(r instanceof Map<?, ?> changes)) {
            throw new ScriptException(
                    "metadata.map(): the function must return a map, got "
                            + r.getClass().getSimpleName());
        }
        Metadata out = update ? m.with(changes) : Metadata.of(changes);
        if (strip) {
            LinkedHashMap<String, String> kept = new LinkedHashMap<>();
            out.forEach(
                    (k, v) -> {
                        if (!v.isEmpty()) kept.put(k, v);
                    });
            out = Metadata.of(kept);
        }
        return out.isEmpty() ? null : out;
    }
}
