package org.groovecast.host;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.LoggerFactory;

/**
 * Counts the log lines written, by level ({@code logback_events_total}, the name Micrometer's own
 * binder and the JVM dashboards use): warnings and errors on a graph are how a station engineer
 * finds the minute something went wrong. An appender on the root logger rather than Micrometer's
 * turbo filter, since a turbo filter runs for every logging call, also those whose level is off,
 * and makes them build their argument arrays; an appender sees only the lines written.
 */
final class LogEventCounter extends UnsynchronizedAppenderBase<ILoggingEvent>
        implements LoggerContextListener, AutoCloseable {
    private final LoggerContext logging;
    private volatile boolean closed;
    private final Counter error;
    private final Counter warn;
    private final Counter info;
    private final Counter debug;
    private final Counter trace;

    private LogEventCounter(LoggerContext context, MeterRegistry registry) {
        this.logging = context;
        error = counter(registry, "error");
        warn = counter(registry, "warn");
        info = counter(registry, "info");
        debug = counter(registry, "debug");
        trace = counter(registry, "trace");
        setContext(context);
        setName("groovecast-metrics");
        start();
        attach();
        context.addListener(this);
    }

    /**
     * Counts on {@code registry} from now until closed; null when the logging is not logback's
     * (nothing to count).
     */
    static LogEventCounter bind(MeterRegistry registry) {
        return LoggerFactory.getILoggerFactory() instanceof LoggerContext c
                ? new LogEventCounter(c, registry)
                : null;
    }

    private static Counter counter(MeterRegistry registry, String level) {
        return Counter.builder("logback.events")
                .tag("level", level)
                .description("log lines written at each level")
                .register(registry);
    }

    private void attach() {
        logging.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(this);
    }

    @Override
    protected void append(ILoggingEvent event) {
        switch (event.getLevel().toInt()) {
            case Level.ERROR_INT -> error.increment();
            case Level.WARN_INT -> warn.increment();
            case Level.INFO_INT -> info.increment();
            case Level.DEBUG_INT -> debug.increment();
            default -> trace.increment();
        }
    }

    @Override
    public void close() {
        closed = true;
        logging.removeListener(this);
        logging.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(this);
        stop();
    }

    /**
     * A logging configuration read again (logback's {@code scan}) stops and drops every appender:
     * come back.
     */
    @Override
    public boolean isResetResistant() {
        return true;
    }

    @Override
    public void onReset(LoggerContext c) {
        if (closed) return;
        start();
        attach();
    }

    @Override
    public void onStart(LoggerContext c) {}

    @Override
    public void onStop(LoggerContext c) {}

    @Override
    public void onLevelChange(Logger logger, Level level) {}
}
