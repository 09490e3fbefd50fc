package org.groovecast.scripts.corpus

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import org.groovecast.scripts.support.LogList
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import org.groovecast.host.Station
import org.groovecast.host.script.ScriptError
import org.groovecast.host.script.ScriptErrors
import org.groovecast.scripts.support.Engine
import org.slf4j.LoggerFactory

/** Loads one corpus script as {@code groovecast check} does, runs it if it loads, and judges both. */
final class CorpusRun {
    /** How many scripts ended each way ("refused", "ran", "checked"; "... with problems"), for the report. */
    static final Map<String, Integer> COUNTS = new TreeMap<>()

    private static List<String> counted(String outcome, List<String> problems) {
        String key = problems ? "${outcome} with problems" : outcome
        COUNTS.merge(key, 1, Integer::sum)
        problems
    }

    static List<String> verdict(Path dir, ScriptCorpus.Entry entry) {
        String fileName = "corpus-${entry.name}.groovy"
        Path file = dir.resolve(fileName)
        Files.writeString(file, entry.text)
        ListAppender<ILoggingEvent> log = new LogList()
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)
        log.start()
        root.addAppender(log)
        try {
            Station station
            boolean realTime = entry.name.contains('thread')
            try {
                station = Engine.load(file, realTime ? [:] : ['clock.sync': 'none'])
            } catch (ScriptErrors e) {
                if (System.getProperty("corpus.debug")) println "REFUSED ${e.errors()*.message}"
                return counted('refused', CorpusVerdict.refusal(e.errors()*.message, fileName))
            } catch (ScriptError e) {
                return counted('refused', CorpusVerdict.refusal([e.message], fileName))
            } catch (Throwable t) {
                return counted('refused', ["internal: load threw ${t.class.name}: ${t.message}".toString()])
            }
            if (!entry.runnable) {
                station.stop()
                return counted('checked', [])
            }
            List<String> problems = []
            try {
                station.start(Duration.ofMillis(realTime ? 600 : 3000))
                if (station.commands().contains('probe')) station.commands().run('probe', 'a b')
                if (station.commands().contains('boom')) station.commands().run('boom', '')
                if (!station.awaitStopped(Duration.ofSeconds(15))) problems << "hang: not stopped 15 s after its end"
            } catch (Throwable t) {
                problems << "internal: run threw ${t.class.name}: ${t.message}".toString()
            } finally {
                station.stop()
            }
            if (System.getProperty("corpus.debug")) log.list.each { println "EVENT ${it.level} ${it.loggerName} ${it.formattedMessage} ${it.throwableProxy?.className}" }
            counted('ran', problems + CorpusVerdict.run(log.list, fileName))
        } finally {
            root.detachAppender(log)
        }
    }
}
