package org.groovecast.scripts.support

import ch.qos.logback.classic.Level
import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import org.slf4j.LoggerFactory

/**
 * What one logger writes during a test: from {@code level} up when given (the tests' own config
 * logs WARN and above), until {@link #close}, which detaches it and gives the logger its level back.
 */
final class LogCapture implements Closeable {
    final ListAppender<ILoggingEvent> appender = new LogList()
    private final Logger logger
    private final boolean leveled

    LogCapture(String name, Level level = null) {
        logger = (Logger) LoggerFactory.getLogger(name)
        appender.start()
        leveled = level != null
        if (leveled) logger.level = level
        logger.addAppender(appender)
    }

    List<String> messages() {
        appender.list*.formattedMessage
    }

    @Override
    void close() {
        logger.detachAppender(appender)
        if (leveled) logger.level = null
    }
}
