package org.groovecast.scripts.support

import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.util.concurrent.CopyOnWriteArrayList

/**
 * A log appender whose events a test may read while the station still logs: logback's ListAppender
 * appends to a plain ArrayList under its own lock, so a test iterating it meanwhile met a
 * ConcurrentModificationException (IcecastSpec, at load 18).
 */
final class LogList extends ListAppender<ILoggingEvent> {
    LogList() {
        list = new CopyOnWriteArrayList<ILoggingEvent>()
    }
}
