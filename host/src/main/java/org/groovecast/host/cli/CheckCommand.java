package org.groovecast.host.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code groovecast check SCRIPT}: compiles and builds the graph without starting anything. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Compile and validate a station script without running it; exit 1 on errors.")
final class CheckCommand implements Callable<Integer> {
    @Mixin CommonOptions options;

    @Parameters(paramLabel = "SCRIPT", description = "The station script.")
    Path script;

    @Override
    public Integer call() {
        options.applyLogLevel();
        try (OperatorPlugins plugins = OperatorPlugins.load(options.pluginsDir())) {
            Station station = StationLoader.load(script, plugins, options.settings());
            if (station == null) return 1;
            System.out.println(
                    script.getFileName()
                            + ": OK, "
                            + station.graph().outputs().size()
                            + " output(s)");
            return 0;
        }
    }
}
