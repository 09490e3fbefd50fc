package org.groovecast.scripts.corpus

import ch.qos.logback.classic.Level
import ch.qos.logback.classic.spi.ILoggingEvent

/**
 * What a script author may be shown: a refusal is one or more {@code file:line: message} lines, and
 * a running script's failures are log lines that name the script's file and line, with no stack
 * trace and no word of the engine's insides. Returns the problems found, empty when none.
 */
final class CorpusVerdict {
    /** A located message: the script's own file name, a line, then the message. */
    static boolean located(String message, String fileName) {
        message ==~ /(?s)\Q${fileName}\E:\d+(:\d+)?: .+/ || message.contains("${fileName}:") && message =~ /\Q${fileName}\E:\d+/
    }

    /** Words that only an engine's insides say. */
    static final List<String> INTERNAL = ['BUG!', 'General error during', 'This method should not have been called',
                                          'Exception in thread', '\tat ', 'org.codehaus.groovy.', 'java.lang.reflect.']

    static List<String> refusal(List<String> messages, String fileName) {
        List<String> problems = []
        if (messages.isEmpty()) problems << 'refused without a message'
        messages.each { m ->
            if (!located(m, fileName)) problems << "unlocated refusal: ${m}"
            INTERNAL.findAll { m.contains(it) }.each { problems << "internal words (${it}) in: ${m}" }
        }
        problems
    }

    /** The log of a run: every warning or error about the script is located and carries no stack trace. */
    static List<String> run(List<ILoggingEvent> events, String fileName) {
        List<String> problems = []
        events.findAll { it.level.isGreaterOrEqual(Level.WARN) }.each { e ->
            String m = e.formattedMessage
            if (e.throwableProxy != null) problems << "stack trace logged (${e.loggerName}): ${m} / ${e.throwableProxy.className}"
            if (!located(m, fileName) && !engineMessage(m)) problems << "unlocated ${e.level} (${e.loggerName}): ${m}"
            INTERNAL.findAll { m.contains(it) }.each { problems << "internal words (${it}) in: ${m}" }
        }
        problems
    }

    /**
     * Warnings the engine gives about the stream rather than the script's code (a fallible source
     * running dry), which have no script line to name.
     */
    private static boolean engineMessage(String m) {
        m.contains('is not ready') || m.contains('catching up') || m.contains('behind real time')
    }
}
