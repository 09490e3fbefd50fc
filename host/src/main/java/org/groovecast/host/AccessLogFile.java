package org.groovecast.host;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.TimeBasedRollingPolicy;
import java.nio.file.Path;
import org.groovecast.net.harbor.sessions.AccessLog;
import org.slf4j.LoggerFactory;

/**
 * The access log's file ({@code settings.harbor.accessLog}): the logger {@link AccessLog#LOGGER}
 * gets an appender of its own, not the engine log's, rolled daily to {@code <file>.<date>.gz} and
 * kept 30 days, behind a queue so that a slow disk never holds up the event loop that ends a
 * session (a line is dropped rather than waited for should the queue of 8192 fill). One file per
 * process: a reload that names another moves it, one that names none closes it.
 */
final class AccessLogFile {
    private static final org.slf4j.Logger log = LoggerFactory.getLogger(AccessLogFile.class);
    private static final String APPENDER = "groovecast-access";

    /** The file written now, or null; guarded by the class. */
    private static String current;

    private AccessLogFile() {}

    /** Writes the access log to {@code file} from now on; empty: to none. */
    static synchronized void use(String file) {
        String wanted = file.isEmpty() ? null : Path.of(file).toAbsolutePath().toString();
        if (java.util.Objects.equals(wanted, current)) return;
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            if (wanted != null)
                log.warn("settings.harbor.accessLog needs logback, which is not the logging here");
            return;
        }
        Logger logger = ctx.getLogger(AccessLog.LOGGER);
        logger.detachAndStopAllAppenders();
        current = wanted;
        if (wanted == null) return;
        RollingFileAppender<ILoggingEvent> out = new RollingFileAppender<>();
        out.setContext(ctx);
        out.setName(APPENDER + "-file");
        out.setFile(wanted);
        TimeBasedRollingPolicy<ILoggingEvent> rolling = new TimeBasedRollingPolicy<>();
        rolling.setContext(ctx);
        rolling.setParent(out);
        rolling.setFileNamePattern(wanted + ".%d{yyyy-MM-dd}.gz");
        rolling.setMaxHistory(30);
        rolling.start();
        out.setRollingPolicy(rolling);
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%msg%n");
        encoder.start();
        out.setEncoder(encoder);
        out.start();
        AsyncAppender queued = new AsyncAppender();
        queued.setContext(ctx);
        queued.setName(APPENDER);
        queued.setQueueSize(8192);
        queued.setDiscardingThreshold(0);
        queued.setNeverBlock(true);
        queued.addAppender(out);
        queued.start();
        logger.setLevel(Level.INFO);
        logger.setAdditive(false);
        logger.addAppender(queued);
        log.info("harbor: access log in {}", wanted);
    }
}
