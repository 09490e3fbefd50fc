package org.groovecast.api;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Track metadata: an immutable, insertion-ordered map of strings ({@code title}, {@code artist},
 * {@code liq_*} annotations...). Being a {@code Map}, scripts read it as {@code m.title}.
 */
public final class Metadata extends AbstractMap<String, String> {
    /** No metadata at all. */
    public static final Metadata EMPTY = new Metadata(Map.of());

    /**
     * The keys a stream may carry to its listeners (in an Ogg comment header, say): Liquidsoap's
     * {@code settings.encoder.metadata.export} default. A track's metadata also holds what only the
     * station should see: the file's path on the server, cue points, gains, request ids.
     */
    public static final java.util.List<String> EXPORTED =
            java.util.List.of(
                    "artist",
                    "title",
                    "album",
                    "genre",
                    "date",
                    "tracknumber",
                    "comment",
                    "track",
                    "year",
                    "dj",
                    "next",
                    "apic",
                    "pic",
                    "metadata_url",
                    "metadata_block_picture",
                    "coverart");

    private final Map<String, String> entries;

    private Metadata(Map<String, String> entries) {
        this.entries = entries;
    }

    /**
     * A copy of {@code map} with keys and values turned to strings; {@code null} values are
     * dropped.
     */
    public static Metadata of(Map<?, ?> map) {
        if (map instanceof Metadata m) return m;
        if (map == null || map.isEmpty()) return EMPTY;
        LinkedHashMap<String, String> copy = new LinkedHashMap<>();
        map.forEach(
                (k, v) -> {
                    if (k != null && v != null) copy.put(k.toString(), v.toString());
                });
        return new Metadata(Collections.unmodifiableMap(copy));
    }

    /**
     * Metadata from alternating keys and values: {@code Metadata.of("title", "x", "artist", "y")}.
     */
    public static Metadata of(String... keysAndValues) {
        if (keysAndValues.length % 2 != 0)
            throw new IllegalArgumentException("keys and values must pair up");
        LinkedHashMap<String, String> copy = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2)
            copy.put(keysAndValues[i], keysAndValues[i + 1]);
        return new Metadata(Collections.unmodifiableMap(copy));
    }

    /** This metadata with {@code other}'s entries added, replacing equal keys. */
    public Metadata with(Map<?, ?> other) {
        if (other.isEmpty()) return this;
        LinkedHashMap<String, String> copy = new LinkedHashMap<>(entries);
        other.forEach(
                (k, v) -> {
                    if (v == null) copy.remove(String.valueOf(k));
                    else copy.put(String.valueOf(k), String.valueOf(v));
                });
        return new Metadata(Collections.unmodifiableMap(copy));
    }

    @Override
    public String get(Object key) {
        return entries.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return entries.entrySet();
    }
}
