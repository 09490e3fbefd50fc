package org.groovecast.net.fuzz;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the engine's logging off while a fuzz test runs: a line per malformed input, a million
 * times over, would cost more than the parsing under test. Restored afterwards, since surefire runs
 * the other tests in the same JVM.
 */
public final class QuietLogs implements AutoCloseable {
    private final Logger logger = (Logger) LoggerFactory.getLogger("org.groovecast");
    private final Level before = logger.getLevel();

    public QuietLogs() {
        logger.setLevel(Level.OFF);
    }

    @Override
    public void close() {
        logger.setLevel(before);
    }
}
