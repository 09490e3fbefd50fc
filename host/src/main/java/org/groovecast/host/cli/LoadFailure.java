package org.groovecast.host.cli;

import java.nio.file.Path;
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
        switch (e) {
            case ScriptErrors all ->
                    all.errors().forEach(err -> System.err.println(err.getMessage()));
            case ScriptError one -> System.err.println(one.getMessage());
            default -> {
                log.debug("{} failed", script, e);
                String m = e.getMessage() != null ? e.getMessage() : e.toString();
                int nl = m.indexOf('\n');
                System.err.println(script.getFileName() + ": " + (nl < 0 ? m : m.substring(0, nl)));
            }
        }
    }
}
