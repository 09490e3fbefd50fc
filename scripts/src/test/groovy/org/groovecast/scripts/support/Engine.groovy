package org.groovecast.scripts.support

import java.nio.file.Path
import java.time.Duration
import org.groovecast.host.Station
import org.groovecast.host.cli.Main
import org.groovecast.host.plugin.OperatorPlugins

/** The real engine with the real plugins, as the tests use it. */
final class Engine {
    // OperatorPlugins expands ffmpeg.zip once under a lock: the spec JVMs side by side wait for it.
    static final Path PLUGINS = Path.of(System.getProperty('groovecast.plugins', 'target/plugins'))
    static final Path SCRIPTS = Path.of(System.getProperty('groovecast.scripts', '.'))

    private static OperatorPlugins plugins

    static synchronized OperatorPlugins plugins() {
        if (plugins == null) plugins = OperatorPlugins.load(PLUGINS)
        plugins
    }

    /** Loads a script; {@code out}, if given, is passed as the OUT environment variable. */
    static Station load(Path script, Map<String, String> settings = [:], Path out = null) {
        Station.load(script, plugins().functions(), settings, out == null ? [:] : [OUT: out.toString()])
    }

    static Station load(String name, String text, Map<String, String> settings = [:]) {
        Station.load(name, text, plugins().functions(), settings)
    }

    /** Loads, runs {@code seconds} of stream time as fast as possible, and waits for the stop. */
    static Station render(Path script, double seconds, Map<String, String> settings = [:], Path out = null) {
        runFor(load(script, ['clock.sync': 'none'] + settings, out), seconds)
    }

    /** The same for script text named {@code name}. */
    static Station render(String name, String text, double seconds, Map<String, String> settings = [:]) {
        runFor(load(name, text, ['clock.sync': 'none'] + settings), seconds)
    }

    private static Station runFor(Station station, double seconds) {
        station.start(Duration.ofMillis((long) (seconds * 1000)))
        assert station.awaitStopped(Duration.ofSeconds(60))
        station
    }

    /**
     * Runs the command line in-process; returns exit code, stdout and stderr. The root logger's
     * level, which the command sets (--log-level, INFO by default), is given back after it: the
     * specs that run next in this JVM count on the tests' own config (WARN and above).
     */
    static Map cli(String... args) {
        def out = new ByteArrayOutputStream()
        def err = new ByteArrayOutputStream()
        PrintStream oldOut = System.out
        PrintStream oldErr = System.err
        def root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
        def rootLevel = root.level
        System.out = new PrintStream(out, true)
        System.err = new PrintStream(err, true)
        try {
            int code = Main.execute(args)
            [code: code, out: out.toString(), err: err.toString()]
        } finally {
            System.out = oldOut
            System.err = oldErr
            root.level = rootLevel
        }
    }
}
