package org.groovecast.host.cli;

import java.nio.file.Path;
import java.util.Map;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;

/** Loads a station for a command, printing script errors as {@code file:line: message} lines. */
final class StationLoader {
    private StationLoader() {}

    /** The loaded station, or null after printing why it could not load. */
    static Station load(Path script, OperatorPlugins plugins, Map<String, String> settings) {
        try {
            return Station.load(script, plugins.functions(), settings, Map.of());
        } catch (RuntimeException e) {
            LoadFailure.print(script, e);
        }
        return null;
    }
}
