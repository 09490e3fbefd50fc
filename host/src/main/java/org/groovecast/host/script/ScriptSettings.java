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
}
