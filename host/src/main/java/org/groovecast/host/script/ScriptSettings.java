package org.groovecast.host.script;

import java.util.Optional;
import org.groovecast.api.ValueType;

/**
 * The station's settings as a script sees them ({@code settings.frame.duration = 0.02}): typed keys
 * under dotted prefixes, read and written by name. The engine hands its settings in through this,
 * so that the script package depends on no engine class (the arrow points from the engine here).
 */
public interface ScriptSettings {
    /** The type of setting {@code key}, or empty when there is no such setting. */
    Optional<ValueType> type(String key);

    /** Whether {@code path} is the start of some keys ({@code frame} of {@code frame.duration}). */
    boolean isPrefix(String path);

    Object get(String key);

    /**
     * Sets {@code key}, converting {@code value}; throws a ScriptException for a value it cannot
     * take.
     */
    void set(String key, Object value);

    /**
     * A station with no settings at all: what a front end is checked against where the engine's
     * settings do not matter (tests, benches); every key is unknown and a set is dropped.
     */
    static ScriptSettings none() {
        return new ScriptSettings() {
            @Override
            public Optional<ValueType> type(String key) {
                return Optional.empty();
            }

            @Override
            public boolean isPrefix(String path) {
                return false;
            }

            @Override
            public Object get(String key) {
                return null;
            }

            @Override
            public void set(String key, Object value) {}
        };
    }
}
