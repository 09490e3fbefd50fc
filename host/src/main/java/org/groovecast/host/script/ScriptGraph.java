package org.groovecast.host.script;

import org.groovecast.api.Source;

/**
 * Where a running script's operator calls record the sources they make, with the script line that
 * made each: the station's graph, handed in by the engine so this package depends on none of its
 * classes.
 */
public interface ScriptGraph {
    void add(Source source, ScriptLine line);

    /**
     * Whether the station runs: its outputs were opened and given their clocks, so an output made
     * now (in a callback) would never start.
     */
    default boolean running() {
        return false;
    }
}
