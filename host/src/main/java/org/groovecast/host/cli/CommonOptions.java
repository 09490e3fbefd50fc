package org.groovecast.host.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/** Options every command shares. */
final class CommonOptions {
    @Option(
            names = "--plugins-dir",
            paramLabel = "DIR",
            description = "Operator plugins directory (default: the distribution's plugins/).")
    Path pluginsDir;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description =
                    "A setting, as in scripts without 'settings.': --set clock.sync=none. Repeatable.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(
            names = {"-l", "--log-level"},
            paramLabel = "LEVEL",
            defaultValue = "info",
            description = "error, warn, info, debug or trace (default: ${DEFAULT-VALUE}).")
    String logLevel;

    Path pluginsDir() {
        if (pluginsDir != null) return pluginsDir;
        String explicit = System.getProperty("groovecast.plugins");
        if (explicit != null) return Path.of(explicit);
        String home = System.getProperty("groovecast.home");
        return home != null ? Path.of(home, "plugins") : Path.of("plugins");
    }

    void applyLogLevel() {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(logLevel, Level.INFO));
    }

    Map<String, String> settings() {
        return settings;
    }
}
