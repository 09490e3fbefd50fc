package org.groovecast.net.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class AcceptErrorsTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(AcceptErrors.class);
    private EmbeddedChannel channel;

    @BeforeEach
    void setUp() {
        logs.start();
        logger.addAppender(logs);
        channel = new EmbeddedChannel(new AcceptErrors("port 8000", now::get));
    }

    @AfterEach
    void tearDown() {
        logger.detachAppender(logs);
        channel.finishAndReleaseAll();
    }

    private void failedAccept() {
        channel.pipeline().fireExceptionCaught(new IOException("Too many open files"));
    }

    private void accepted() {
        channel.writeInbound("connection");
        channel.readInbound();
    }

    private List<String> warnings() {
        return logs.list.stream()
                .filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void aFloodWhoseQueuedConnectionsFailAgainRightAfterAcceptsResumeIsWarnedOnce() {
        for (int i = 0; i < 15; i++) failedAccept();
        accepted();
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(2));
        failedAccept();
        accepted();

        assertEquals(1, warnings().size(), () -> logs.list.toString());
        assertEquals(
                2,
                logs.list.stream()
                        .filter(
                                e ->
                                        e.getFormattedMessage()
                                                .contains("accepting connections again"))
                        .count());
    }

    @Test
    void anotherEpisodeLongAfterIsWarnedAgain() {
        failedAccept();
        accepted();
        now.addAndGet(TimeUnit.SECONDS.toNanos(11));
        failedAccept();

        assertEquals(2, warnings().size(), () -> logs.list.toString());
    }
}
