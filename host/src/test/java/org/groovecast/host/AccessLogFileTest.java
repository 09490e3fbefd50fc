package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.TimeBasedRollingPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.net.harbor.sessions.AccessLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * settings.harbor.accessLog: the access log's lines go to a file of their own, rolled daily and
 * behind a queue, never into the engine's log; another file moves it, none closes it.
 */
class AccessLogFileTest {
    @TempDir Path dir;
    private final Logger access = (Logger) LoggerFactory.getLogger(AccessLog.LOGGER);

    @AfterEach
    void close() {
        AccessLogFile.use("");
    }

    private List<Appender<ILoggingEvent>> appenders() {
        List<Appender<ILoggingEvent>> out = new ArrayList<>();
        access.iteratorForAppenders().forEachRemaining(out::add);
        return out;
    }

    @Test
    void linesGoToTheirOwnRolledFileAndNowhereElse() throws Exception {
        Path file = dir.resolve("access.log");
        AccessLogFile.use(file.toString());

        assertFalse(access.isAdditive(), "not into the engine's log");
        List<Appender<ILoggingEvent>> a = appenders();
        assertEquals(1, a.size());
        AsyncAppender queued = assertInstanceOf(AsyncAppender.class, a.getFirst());
        assertTrue(queued.isNeverBlock(), "an event loop never waits for the disk");
        RollingFileAppender<?> out =
                assertInstanceOf(
                        RollingFileAppender.class, queued.getAppender("groovecast-access-file"));
        TimeBasedRollingPolicy<?> rolling =
                assertInstanceOf(TimeBasedRollingPolicy.class, out.getRollingPolicy());
        assertEquals(file.toAbsolutePath() + ".%d{yyyy-MM-dd}.gz", rolling.getFileNamePattern());
        assertEquals(30, rolling.getMaxHistory());

        access.info(
                "192.0.2.7 - - [05/Dec/2026:08:40:01 +0000] \"GET /radio HTTP/1.1\" 200 1 \"-\" \"-\" 0");
        long end = System.nanoTime() + 5_000_000_000L;
        while ((!Files.exists(file) || Files.size(file) == 0) && System.nanoTime() < end)
            Thread.sleep(20);
        assertEquals(
                List.of(
                        "192.0.2.7 - - [05/Dec/2026:08:40:01 +0000] \"GET /radio HTTP/1.1\" 200 1 \"-\" \"-\" 0"),
                Files.readAllLines(file),
                "the line alone: no date, level or logger of the engine's pattern");

        Path other = dir.resolve("other.log");
        AccessLogFile.use(other.toString());
        assertEquals(1, appenders().size(), "moved, not added");
        AccessLogFile.use("");
        assertTrue(appenders().isEmpty(), "closed");
    }
}
