package org.groovecast.host.clock;

import org.groovecast.api.ScriptException;

/** How a clock relates to real time. */
public enum Sync {
    /** One frame per frame duration of wall time. */
    AUTO,
    /** As fast as the graph can go: offline rendering, fast tests. */
    NONE;

    public static Sync parse(String s) {
        return switch (s) {
            case "auto" -> AUTO;
            case "none" -> NONE;
            default ->
                    throw new ScriptException(
                            "clock sync must be 'auto' or 'none', got '" + s + "'");
        };
    }
}
