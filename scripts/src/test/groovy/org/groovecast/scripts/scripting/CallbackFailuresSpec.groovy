package org.groovecast.scripts.scripting

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import org.groovecast.api.Source
import org.groovecast.host.Station
import org.groovecast.host.script.ClosureFunction
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Script callbacks that fail (a failed assert, a stack overflow, an exception, a function called
 * with arguments it does not take): each failure is logged with its script line, once for a run of
 * failures, the call counts as failed (a callback as not run, a predicate as false, a metadata
 * function as unchanged), and the station plays on. Renders are unsynced, 20 ms frames: a clock
 * whose task died would never end them.
 */
@Tag("integration")
class CallbackFailuresSpec extends Specification {
    @TempDir
    Path dir

    Station station

    def cleanup() {
        station?.stop()
    }

    Station render(String script, double seconds) {
        station = Engine.load('radio.groovy', script.replace('OUT', dir.resolve('out.wav').toString()),
                ['clock.sync': 'none'])
        station.start(java.time.Duration.ofMillis((long) (seconds * 1000)))
        assert station.awaitStopped(java.time.Duration.ofSeconds(30)): 'the station ended its render'
        station
    }

    long ticks() { station.clocks()[0].ticks }

    def "an onTrack callback whose assert fails at every track is logged once at its line; the station plays on"() {
        given:
        def sources = new LogCapture(Source.name)

        when: 'ten tracks without a title, in 5 s of stream'
        render('''
            def music = sine(440).tracks(duration: 0.5, id: 'music')
            music.onTrack { m -> assert m.title, 'no title' }
            music.onTrack { m -> log.info('track') }
            output.dummy(music, fallible: true)
        ''', 5)

        then: 'all 250 frames were made, and the other callback ran at every track'
        ticks() == 250
        station.scriptLog().recent().count('info: track') == 10

        and:
        sources.messages() == ['music: a callback failed, the stream goes on: radio.groovy:3: assertion failed: no title']

        cleanup:
        sources.close()
    }

    def "a callback that overflows its stack is logged once and the station plays on"() {
        given:
        def sources = new LogCapture(Source.name)

        when:
        render('''
            int deeper(int n) { deeper(n + 1) + 1 }
            def music = sine(440).tracks(duration: 0.5, id: 'music')
            music.onTrack { m -> deeper(0) }
            music.onFrame { -> }
            output.dummy(music, fallible: true)
        ''', 5)

        then:
        ticks() == 250
        sources.messages() == ['music: a callback failed, the stream goes on: radio.groovy:2: stack overflow '
                + '(a function that calls itself without end?)']

        cleanup:
        sources.close()
    }

    def "a switchOn predicate that throws counts as false: the next input plays and the output keeps running"() {
        given:
        def functions = new LogCapture(ClosureFunction.name)

        when: 'the predicate of the 440 Hz input throws at every selection; the 660 Hz one is always true'
        render('''
            def a = sine(440, amplitude: 0.5).tracks(duration: 0.5)
            def b = sine(660, amplitude: 0.5).tracks(duration: 0.5)
            def s = switchOn([[{ -> throw new IllegalStateException('schedule service down') }, a], [{ -> true }, b]])
            output.file(wav(), 'OUT', s, fallible: true)
        ''', 3)
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: '3 s of the second input'
        ticks() == 150
        Math.abs(w.frequency(0.1, 2.9) - 660) < 3

        and:
        functions.messages() == ['a script function failed, the station goes on: radio.groovy:4: '
                + 'IllegalStateException: schedule service down']

        cleanup:
        functions.close()
    }

    def "a predicate that takes an argument it is not given counts as false and does not stop the output"() {
        given:
        def functions = new LogCapture(ClosureFunction.name)

        when: 'a predicate of a case list (called with nothing) that wants an argument; onSelect { -> } is refused at check (BadScriptsSpec)'
        render('''
            def a = sine(440).tracks(duration: 0.5, id: 'music')
            def b = sine(660).tracks(duration: 0.5, id: 'other')
            def s = switchOn([[{ x, y -> true }, a], [{ -> true }, b]])
            a.onTrack { m -> log.info('a') }
            b.onTrack { m -> log.info('b') }
            output.dummy(s, fallible: true)
        ''', 3)

        then: 'the second case played every track, the first none'
        ticks() == 150
        station.scriptLog().recent().count('info: b') == 6
        station.scriptLog().recent().count('info: a') == 0

        and: 'the failure is logged once, where the script wrote the predicate'
        functions.messages() == ['a script function failed, the station goes on: radio.groovy:4: '
                + 'the function takes 2 arguments but is called with none']

        cleanup:
        functions.close()
    }

    def "a metadata.map function that throws leaves the metadata as it came"() {
        given:
        Path mp3 = Media.mp3('unmapped.mp3', [440], 0.5, 'Original')
        def functions = new LogCapture(ClosureFunction.name)

        when:
        render("""
            def music = metadata.map(single('${mp3}')) { m ->
                throw new IOException('catalogue down')
            }
            music.onMetadata { m -> log.info("title \${m.title}") }
            output.dummy(music, fallible: true)
        """, 3)

        then: 'each track kept its title'
        station.scriptLog().recent().size() >= 5
        station.scriptLog().recent().every { it == 'info: title Original' }

        and:
        functions.messages() == ['a script function failed, the station goes on: radio.groovy:3: IOException: catalogue down']

        cleanup:
        functions.close()
    }

    def "SIGTERM stops a station whose callback failed at once, and one whose callback never returns within its stop deadline"() {
        given:
        Path failing = dir.resolve('failing.groovy')
        Files.writeString(failing, '''
            def music = sine(440).tracks(duration: 0.2)
            music.onTrack { m -> assert m.title, 'no title' }
            output.dummy(music, fallible: true)
        ''')
        Path stuck = dir.resolve('stuck.groovy')
        Files.writeString(stuck, '''
            def music = sine(440).tracks(duration: 0.2)
            int n = 0
            music.onTrack { m -> log.info('track'); if (++n == 3) { while (true) { n++ } } }
            output.dummy(music, fallible: true)
        ''')

        when: 'the failing one, a second after it went on air'
        def a = signalled(failing, 'clocks as')

        then: 'it ends as soon as a station without failures would'
        a.code == 0
        a.millis < 5000

        and: 'it had logged the failure'
        a.log.any { it.contains('a callback failed, the stream goes on: failing.groovy:3: assertion failed: no title') }

        when: 'the stuck one, once its callback loops'
        def b = signalled(stuck, 'track', 3)

        then: 'it ends without that tick, once the stop gave up waiting for it'
        b.code == 0
        b.millis < 15000
        b.log.any { it.contains('a tick did not finish in time for the stop') }
    }

    /**
     * Runs {@code script} in an engine process of its own until {@code times} lines with {@code text}
     * were logged, then sends it SIGTERM: its exit code, how long it took to exit, and its log.
     */
    Map signalled(Path script, String text, int times = 1) {
        String java = Path.of(System.getProperty('java.home'), 'bin', 'java').toString()
        Process engine = new ProcessBuilder(java, '-cp', System.getProperty('java.class.path'), 'org.groovecast.host.cli.Main',
                'run', '-l', 'info', '--plugins-dir', Engine.PLUGINS.toAbsolutePath().toString(), script.toString())
                .redirectErrorStream(true).start()
        List<String> log = Collections.synchronizedList([])
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>()
        Thread reader = Thread.startDaemon { engine.inputStream.newReader().eachLine { log << it; lines.add(it) } }
        try {
            int seen = 0
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
            while (seen < times && System.nanoTime() < end) {
                String l = lines.poll(100, TimeUnit.MILLISECONDS)
                if (l != null && l.contains(text)) seen++
            }
            assert seen == times: "no '${text}' in ${log}"
            Thread.sleep(1000)
            long start = System.nanoTime()
            // not engine.destroy(), which closes the engine's output: what it logs while it stops is wanted
            assert new ProcessBuilder('kill', '-TERM', engine.pid().toString()).start().waitFor() == 0
            assert engine.waitFor(40, TimeUnit.SECONDS): 'the engine ended'
            reader.join(5000)
            [code: engine.exitValue(), millis: (System.nanoTime() - start) / 1_000_000, log: List.copyOf(log)]
        } finally {
            engine.destroyForcibly()
        }
    }
}
