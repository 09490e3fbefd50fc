package org.groovecast.net.output;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.groovecast.api.Metadata;

/**
 * The tags a stream may carry to its listeners, Liquidsoap's {@code
 * settings.encoder.metadata.export} default: a track's metadata also holds what only the station
 * should see (the file's path on the server, cue points, gains, request ids), which an Ogg stream's
 * comment header would otherwise publish to every listener.
 */
final class ExportedTags {
    private static final Set<String> KEYS = Set.copyOf(Metadata.EXPORTED);

    private ExportedTags() {}

    /** The exported part of {@code m}, in its order; once per track, never per frame. */
    static Metadata of(Metadata m) {
        Map<String, String> kept = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : m.entrySet())
            if (KEYS.contains(e.getKey().toLowerCase(java.util.Locale.ROOT)))
                kept.put(e.getKey(), e.getValue());
        return kept.size() == m.size() ? m : Metadata.of(kept);
    }
}
