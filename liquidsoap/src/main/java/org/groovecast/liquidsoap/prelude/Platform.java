package org.groovecast.liquidsoap.prelude;

import java.time.ZonedDateTime;
import org.groovecast.liquidsoap.eval.Fn;

/**
 * Where the library's effects go: the standard output, the log, the scheduler that runs {@code
 * thread.run}, the settings, the control commands. A station's front end hands the engine's; a
 * script run alone (tests, the conformance bench) gets {@link StandalonePlatform}.
 */
public interface Platform {
    /** {@code print}: text to the standard output. */
    void print(String text);

    /** {@code log(label=, level=)}: 1 critical, 2 severe, 3 important, 4 info, 5 debug. */
    void log(String label, int level, String message);

    /**
     * {@code thread.run}: runs {@code f} after {@code delay} seconds, then every {@code every}
     * seconds when positive; {@code fast} false when it may block.
     */
    void runLater(double delay, double every, boolean fast, Fn f);

    /** {@code shutdown()}: the script asks to stop (with {@code code}: {@code exit(code)}). */
    void shutdown(int code);

    ZonedDateTime now();

    /** Seconds since the script started. */
    double uptime();

    /** An environment variable (the script's overrides first), or null. */
    String getenv(String name);

    void setenv(String name, String value);

    /**
     * A built-in setting was set ({@code settings.frame.duration := 0.02}): the path without {@code
     * settings.}. Answers false when it means nothing here (the library then logs that it is
     * ignored, once).
     */
    boolean setting(String path, Object value);

    /** {@code server.register}: a control command of the script's own. */
    void registerCommand(String name, String usage, String description, Fn handler);

    /** {@code server.execute}: runs a control command, answers its output lines. */
    String executeCommand(String command);

    /**
     * Runs {@code task} when the script stops (its station stops or is replaced by a reload):
     * {@code on_cleanup} functions, the file watches to close. Without an engine, never.
     */
    default void atStop(Runnable task) {}

    /** {@code liquidsoap.script.path}: the script being run, as given. */
    default String scriptPath() {
        return "";
    }
}
