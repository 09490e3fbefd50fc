package org.groovecast.host.status;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.function.Supplier;

/**
 * A JSON document rebuilt at most once per period: what widgets poll, so that a thousand players
 * asking for the title cost the station one build a second, not a thousand.
 */
final class CachedJson {
    static final JsonMapper JSON = JsonMapper.builder().build();
    private final long ttlNanos;
    private final Supplier<Object> build;
    private String text;
    private long builtAt;

    CachedJson(long ttlMillis, Supplier<Object> build) {
        this.ttlNanos = ttlMillis * 1_000_000L;
        this.build = build;
    }

    synchronized String get() {
        if (text == null || System.nanoTime() - builtAt >= ttlNanos) {
            text = write(build.get());
            builtAt = System.nanoTime(); // after the build: a slow one must not leave its answer
            // stale at once
        }
        return text;
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("status JSON: " + e.getMessage(), e);
        }
    }
}
