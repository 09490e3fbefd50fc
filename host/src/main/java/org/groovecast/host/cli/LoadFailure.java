package org.groovecast.host.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Function;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a command prints a station that failed to load or start: its script errors, one {@code
 * file:line: message} line each; anything else as one line naming the script, the trace only in the
 * debug log. A station engineer reads these, so never a stack trace.
 */
final class LoadFailure {
    private static final Logger log = LoggerFactory.getLogger(LoadFailure.class);

    private LoadFailure() {}

    static void print(Path script, RuntimeException e) {
        print(script.getFileName() + ": ", e, System.err, ScriptError::getMessage);
    }

    /**
     * The same on {@code out}: each script error as {@code line} writes it, anything else after
     * {@code prefix} (the script's name).
     */
    static void print(
            String prefix,
            RuntimeException e,
            PrintStream out,
            Function<ScriptError, String> line) {
        switch (e) {
            case ScriptErrors all -> all.errors().forEach(err -> out.println(line.apply(err)));
            case ScriptError one -> out.println(line.apply(one));
            default -> {
                log.debug("{}failed", prefix, e);
                String m = e.getMessage() != null ? e.getMessage() : e.toString();
                int nl = m.indexOf('\n');
                out.println(prefix + (nl < 0 ? m : m.substring(0, nl)));
            }
        }
    }
}
