package org.groovecast.host.script;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A language station scripts are written in: Groovy (the engine's own, {@link GroovyFrontEnd}) or
 * another, found by {@link java.util.ServiceLoader} (the Liquidsoap front end, in its own module,
 * which depends on this one and never the other way). {@code Station.load} picks the front end that
 * {@link #reads} the script's file name, so every command (run, check, reload, --watch, SIGHUP)
 * takes every language.
 *
 * <p>Loading a station is two steps: {@link #load} reads and checks the script and what it
 * includes, refusing a script with mistakes with located {@link ScriptError}s before anything is
 * built; {@link Script#run} then evaluates it once against the station's {@link ScriptRuntime},
 * which makes and records every source in the station's graph. A reload is a new load of the same
 * file, the running station untouched until the new one is built.
 */
public interface ScriptFrontEnd {
    /** Whether this front end reads scripts named {@code fileName} (by its extension). */
    boolean reads(String fileName);

    /**
     * The language this front end reads and the version of it whose scripts it takes, as its users
     * name them: {@code Liquidsoap 2.4.5} (what {@code liquidsoap --version} reports).
     */
    String language();

    /**
     * Reads and checks the script in {@code file} and the files it includes, against the station's
     * functions and settings. {@code reading} is told of each file read, also one that turns out
     * missing or broken (for {@code run --watch}).
     *
     * @throws ScriptErrors or {@link ScriptError}, each {@code file:line: message}, for a script
     *     that cannot run
     */
    Script load(
            Path file, ScriptFunctions functions, ScriptSettings settings, Consumer<Path> reading);

    /**
     * The same for script text, named {@code fileName} in messages, its includes resolved from the
     * working directory.
     */
    Script load(String fileName, String text, ScriptFunctions functions, ScriptSettings settings);

    /** A script read and checked, ready to build its station's graph once. */
    interface Script {
        /** The script's files (names for messages, paths to watch). */
        ScriptFiles files();

        /**
         * Evaluates the script: its operator calls go through {@code runtime}. Throws located
         * errors.
         */
        void run(ScriptRuntime runtime);

        /** The place in the script running now, when this thread is running it. */
        Optional<ScriptLine> currentLine();

        /** The station is gone: frees what the script holds (classes, caches). */
        void unload();

        /**
         * The class the script compiled to, for tests that check a reload leaves none; null when it
         * compiles to none.
         */
        default Class<?> compiledClass() {
            return null;
        }

        /**
         * Whether the station runs once evaluated even with no output and nothing served (its
         * timers and commands are then all it does): Liquidsoap's {@code settings.init.force_start
         * := true}. Asked after {@link #run}.
         */
        default boolean runsWithoutOutputs() {
            return false;
        }
    }
}
