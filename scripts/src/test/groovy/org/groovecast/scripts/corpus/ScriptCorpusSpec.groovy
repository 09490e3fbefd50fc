package org.groovecast.scripts.corpus

import java.nio.file.Path
import spock.lang.Shared
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir
import spock.lang.Unroll

/**
 * The generated corpus ({@link ScriptCorpus}) through the station's load (what {@code groovecast
 * check} does) and, for what loads, a few seconds of run: no script may get an internal error, a
 * stack trace, an unlocated message or a hang. Stream time is rendered offline, so a few seconds
 * of it take milliseconds; the scripts whose code runs on the scheduler (thread.run) get half a
 * second of real time.
 */
@Tag("integration")
class ScriptCorpusSpec extends Specification {
    @Shared
    @TempDir
    Path dir

    @Unroll
    def "#entry: loads or is refused with located messages, and runs without an internal error or a hang"() {
        expect:
        CorpusRun.verdict(dir, entry) == []

        where:
        entry << ScriptCorpus.all()
    }

    def cleanupSpec() {
        // The note reports the corpus's size and how its scripts ended.
        java.nio.file.Files.writeString(Path.of('target', 'corpus-counts.txt'),
                CorpusRun.COUNTS.collect { k, v -> "${k}: ${v}" }.join('\n') + '\n')
    }
}
