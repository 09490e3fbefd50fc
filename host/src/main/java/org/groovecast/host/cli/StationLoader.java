package org.groovecast.host.cli;

import java.nio.file.Path;
import java.util.Map;
import org.groovecast.api.ScriptException;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;

/** Loads a station for a command, printing script errors as {@code file:line: message} lines. */
final class StationLoader {
    private StationLoader() {}

    /** The loaded station, or null after printing why it could not load. */
    static Station load(Path script, OperatorPlugins plugins, Map<String, String> settings) {
        try {
            return Station.load(script, plugins.functions(), settings, Map.of());
        } catch (ScriptErrors e) {
            e.errors().forEach(err -> System.err.println(err.getMessage()));
        } catch (ScriptError e) {
            System.err.println(e.getMessage());
        } catch (ScriptException e) {
            System.err.println(script.getFileName() + ": " + e.getMessage());
        }
        return null;
    }
}
