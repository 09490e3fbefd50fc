package org.groovecast.host.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.groovecast.host.Station;
import org.groovecast.host.StationReloader;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.plugin.PluginSet;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import sun.misc.Signal;

/** {@code groovecast run SCRIPT}: runs a station until SIGINT or SIGTERM, then stops it cleanly. */
@Command(name = "run", description = "Run a station script until interrupted (SIGINT/SIGTERM stop it cleanly, exit 0).")
final class RunCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Option(names = "--stop-after", paramLabel = "SECONDS",
            description = "Stop each clock after this much stream time (offline rendering with --set clock.sync=none).")
    Double stopAfter;

    @Option(names = "--watch", description = "Reload the script when its file changes (listeners stay connected).")
    boolean watch;

    @Parameters(paramLabel = "SCRIPT", description = "The station script.")
    Path script;

    @Override
    public Integer call() throws InterruptedException {
        options.applyLogLevel();
        if (stopAfter == null) {
            try (PluginSet plugins = new PluginSet(options.pluginsDir())) {
                return live(plugins);
            }
        }
        try (OperatorPlugins plugins = OperatorPlugins.load(options.pluginsDir())) {
            Station station = StationLoader.load(script, plugins, options.settings());
            if (station == null) return 1;
            Signal.handle(new Signal("INT"), s -> station.stop());
            Signal.handle(new Signal("TERM"), s -> station.stop());
            try {
                station.start(Duration.ofMillis((long) (stopAfter * 1000)));
            } catch (ScriptError e) {
                System.err.println(e.getMessage());
                return 1;
            }
            while (!station.awaitStopped(Duration.ofSeconds(1))) {
                // waiting for a signal or for every clock to end
            }
            return 0;
        }
    }

    /** Until a signal: reloadable on SIGHUP, the control's reload command, and file changes with --watch. */
    private int live(PluginSet plugins) throws InterruptedException {
        // Asked at every reload: plugins installed meanwhile take effect then.
        StationReloader reloader = new StationReloader(script, plugins::functions, options.settings());
        try {
            reloader.start();
        } catch (ScriptError | ScriptErrors e) {
            System.err.println(e.getMessage());
            return 1;
        }
        Signal.handle(new Signal("INT"), s -> reloader.current().stop());
        Signal.handle(new Signal("TERM"), s -> reloader.current().stop());
        Signal.handle(new Signal("HUP"), s -> Thread.ofVirtual().name("reload").start(reloader::reload));
        if (watch) ScriptWatcher.start(script, reloader::reload);
        // A reload replaces the station: wait on whichever is on air, until one stops for good.
        while (true) {
            Station s = reloader.current();
            if (s.awaitStopped(Duration.ofSeconds(1)) && !reloader.isReloading() && reloader.current() == s) return 0;
        }
    }
}
