package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.status.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The logging configurations that ship: the engine's, the distribution's and its rolling-file
 * example.
 */
class LogbackConfigsTest {
    /** The distribution's conf/, beside this module (tests run in the module's directory). */
    private static final Path CONF = Path.of("..", "distribution", "src", "conf");

    private static final String DATED = "%d{yyyy-MM-dd HH:mm:ss.SSS} ";

    @TempDir Path dir;

    /**
     * A context of its own configured from {@code file}, so that the tests' own logging is left
     * alone.
     */
    private static LoggerContext configure(Path file, Map<String, String> properties)
            throws JoranException {
        LoggerContext ctx = new LoggerContext();
        ctx.setMDCAdapter(
                new LogbackMDCAdapter()); // what SLF4J's binding gives the context of its own
        properties.forEach(ctx::putProperty);
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(ctx);
        configurator.doConfigure(file.toFile());
        return ctx;
    }

    /**
     * What logback said of the file at WARN or above (an unknown element, a bad value, a class not
     * found...).
     */
    private static void assertNoProblems(LoggerContext ctx, Path file) {
        List<Status> problems =
                ctx.getStatusManager().getCopyOfStatusList().stream()
                        .filter(s -> s.getEffectiveLevel() >= Status.WARN)
                        .toList();
        assertTrue(problems.isEmpty(), file + ": " + problems);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"src/main/resources/logback.xml", "../distribution/src/conf/logback.xml"})
    void consoleLinesCarryTheDate(String config) throws JoranException {
        Path file = Path.of(config);
        LoggerContext ctx = configure(file, Map.of());
        try {
            assertNoProblems(ctx, file);
            Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
            ConsoleAppender<?> console =
                    assertInstanceOf(ConsoleAppender.class, root.getAppender("STDERR"));
            String pattern =
                    assertInstanceOf(PatternLayoutEncoder.class, console.getEncoder()).getPattern();
            assertTrue(pattern.startsWith(DATED), pattern);
        } finally {
            ctx.stop();
        }
    }

    @Test
    void theRollingExampleParsesCleanlyAndWritesDatedLinesUnderItsLogsDirectory()
            throws JoranException, IOException {
        Path file = CONF.resolve("logback-rolling.xml");
        Path logs = dir.resolve("logs");
        LoggerContext ctx = configure(file, Map.of("groovecast.logs", logs.toString()));
        try {
            assertNoProblems(ctx, file);
            Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
            assertInstanceOf(
                    ConsoleAppender.class, root.getAppender("STDERR"), "the console is kept");
            AsyncAppender async =
                    assertInstanceOf(AsyncAppender.class, root.getAppender("ASYNC_FILE"));
            RollingFileAppender<?> rolling =
                    assertInstanceOf(RollingFileAppender.class, async.getAppender("FILE"));
            assertEquals(logs.resolve("groovecast.log").toString(), rolling.getFile());
            SizeAndTimeBasedRollingPolicy<?> policy =
                    assertInstanceOf(
                            SizeAndTimeBasedRollingPolicy.class, rolling.getRollingPolicy());
            assertEquals(
                    logs.resolve("groovecast.%d{yyyy-MM-dd}.%i.log.gz").toString(),
                    policy.getFileNamePattern());
            assertEquals(14, policy.getMaxHistory());
            ctx.getLogger("org.groovecast.example").info("hello rolling");
            assertNoProblems(ctx, file);
        } finally {
            ctx.stop(); // flushes the async appender's queue
        }
        String text = Files.readString(logs.resolve("groovecast.log"));
        assertTrue(
                text.matches(
                        "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  example - hello rolling\\R"),
                text);
    }
}
