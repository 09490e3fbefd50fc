package org.groovecast.host;

import java.util.ArrayDeque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The script's {@code log.*} functions: SLF4J under the script's name, plus the last lines for
 * inspection.
 */
public final class ScriptLog {
    private static final int KEPT = 1_000;
    private final Logger logger;
    private final ArrayDeque<String> recent = new ArrayDeque<>();

    ScriptLog(String scriptName) {
        this.logger =
                LoggerFactory.getLogger(
                        "script." + scriptName.replaceFirst("\\.(groovy|liq)$", ""));
    }

    void log(String level, Object message) {
        String text = String.valueOf(message);
        switch (level) {
            case "debug" -> logger.debug(text);
            case "warning" -> logger.warn(text);
            case "error" -> logger.error(text);
            default -> logger.info(text);
        }
        synchronized (recent) {
            if (recent.size() == KEPT) recent.removeFirst();
            recent.addLast(level + ": " + text);
        }
    }

    /** The last lines logged by the script, oldest first, as {@code level: message}. */
    public List<String> recent() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }
}
