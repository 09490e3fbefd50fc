package org.groovecast.scripts.operators

import java.nio.file.Path
import org.groovecast.api.ClockInfo
import org.groovecast.host.Station
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** The core operators, each driven through a real script on an unsynced clock. */
@Tag("integration")
class OperatorsSpec extends Specification {
    @TempDir
    Path dir

    Station render(String script, double seconds, Map<String, String> settings = [:]) {
        Engine.render('t.groovy', script.replace('OUT', dir.resolve('out.wav').toString()), seconds, settings)
    }

    Wav wav() { Wav.read(dir.resolve('out.wav')) }

    def "fallback plays the first ready source and falls back when it ends"() {
        when:
        render('''
            def first = once(sine(440, amplitude: 0.5).tracks(duration: 1))
            def s = fallback(first, sine(880, amplitude: 0.5))
            s.onTrack { m -> log.info('track') }
            output.file(wav(), 'OUT', s)
        ''', 3)
        def w = wav()

        then:
        Math.abs(w.frequency(0.1, 0.9) - 440) < 2
        Math.abs(w.frequency(1.1, 2.9) - 880) < 2
    }

    def "sequence plays one track of each source, then stays on the last"() {
        when:
        def st = render('''
            def s = sequence(sine(440).tracks(duration: 1), sine(660).tracks(duration: 1), sine(880))
            output.file(wav(), 'OUT', s)
        ''', 4)
        def w = wav()

        then:
        [w.frequency(0.1, 0.9), w.frequency(1.1, 1.9), w.frequency(2.1, 3.9)].collect { Math.round(it / 10) * 10 } == [440, 660, 880]
    }

    def "add mixes, amplify scales, normalize divides by the total weight"() {
        when:
        render('''
            def s = amplify(0.5, add(normalize: false, blank(), sine(440, amplitude: 0.8)))
            output.file(wav(), 'OUT', s)
        ''', 1)
        int peak = wav().samples[0].toList().max()

        then:
        Math.abs(peak / 32767.0 - 0.4) < 0.01
    }

    def "metadata.map rewrites metadata inserted upstream, and onMetadata sees the result"() {
        when:
        def st = render('''
            def s = sine(440)
            def mapped = metadata.map(s) { m -> [title: m.title.toUpperCase(), artist: 'groovecast'] }
            mapped.onMetadata { m -> log.info("${m.title} by ${m.artist}") }
            output.dummy(mapped)
            s.insertMetadata(title: 'hello')
        ''', 0.5)

        then:
        st.scriptLog().recent() == ['info: HELLO by groovecast']
    }

    def "random and rotate use only the sources they are given, weighted"() {
        when:
        def st = render('''
            def a = blank(duration: 0.1, id: 'a')
            def b = blank(duration: 0.1, id: 'b')
            def r = rotate(weights: [3, 1], a, b)
            r.onTrack { m -> log.info('r') }
            a.onTrack { m -> log.info('a') }
            b.onTrack { m -> log.info('b') }
            output.dummy(r)
        ''', 0.8)
        def order = st.scriptLog().recent().findAll { it != 'info: r' }.collect { it[-1] }.join()

        then:
        order == 'aaabaaab'
    }

    def "random picks by weight, and settings.random.seed repeats its choices"() {
        given:
        String script = '''
            def a = blank(duration: 0.02, id: 'a')
            def b = blank(duration: 0.02, id: 'b')
            def r = fallback(random(weights: [3, 1], a, b), blank())
            a.onTrack { m -> log.info('a') }
            b.onTrack { m -> log.info('b') }
            output.dummy(r)
        '''
        Closure<String> order = { String seed ->
            render(script, 4, ['random.seed': seed]).scriptLog().recent().collect { it[-1] }.join()
        }

        when:
        String first = order('7')
        String again = order('7')
        String other = order('8')

        then: 'the same seed, the same choices, whatever the fallback around it asked in between'
        first.length() > 150
        again == first
        other != first

        and: 'three of a for one of b'
        Math.abs(first.count('a') / first.length() - 0.75) < 0.1
    }

    def "a reloaded station moves the seed along rather than repeat the first choices of the one it replaced"() {
        given:
        String script = '''
            def a = blank(duration: 0.02, id: 'a')
            def b = blank(duration: 0.02, id: 'b')
            def r = fallback(random(a, b), blank())
            a.onTrack { m -> log.info('a') }
            b.onTrack { m -> log.info('b') }
            output.dummy(r)
        '''
        Closure<String> order = { Station s ->
            s.start(java.time.Duration.ofSeconds(2))
            assert s.awaitStopped(java.time.Duration.ofSeconds(60))
            s.scriptLog().recent().collect { it[-1] }.join()
        }
        Map<String, String> settings = ['clock.sync': 'none', 'random.seed': '7']

        when:
        Station first = Engine.load('t.groovy', script, settings)
        String before = order(first)
        Station next = Engine.load('t.groovy', script, settings)
        next.follows(first)
        String after = order(next)
        Station again = Engine.load('t.groovy', script, settings)
        Station nextAgain = Engine.load('t.groovy', script, settings)
        nextAgain.follows(again)
        order(again)

        then: 'the successor draws its own choices, and the whole run still repeats from the seed'
        before.length() > 50
        after != before
        order(nextAgain) == after
    }

    def "switchOn follows its predicates at track boundaries"() {
        when:
        def st = render('''
            def n = 0
            def a = blank(duration: 0.1, id: 'a')
            def b = blank(duration: 0.1, id: 'b')
            def s = switchOn([[{ -> n < 3 }, a], [{ -> true }, b]])
            s.onTrack { m -> n++ }
            a.onTrack { m -> log.info('a') }
            b.onTrack { m -> log.info('b') }
            output.dummy(s, fallible: true)
        ''', 0.6)

        then:
        st.scriptLog().recent().collect { it[-1] }.join() == 'aaabbb'
    }

    def "clock.assignNew groups outputs on one named clock whose duty the script can read"() {
        when:
        def st = render('''
            def a = sine(440)
            def b = sine(660)
            def c = clock.assignNew(id: 'studio', [a, b])
            output.dummy(a)
            output.dummy(b)
            thread.run(delay: 0.2) { -> log.info("clock ${c.id}") }
        ''', 1)
        List<ClockInfo> clocks = st.clocks()

        then:
        clocks*.id == ['studio']
        clocks[0].ticks == 50
        clocks[0].duty > 0
    }

    def "each output gets its own clock unless they share a source"() {
        when:
        def st = render('''
            def shared = sine(440)
            output.dummy(shared, id: 'one')
            output.dummy(amplify(0.5, shared), id: 'two')
            output.dummy(sine(660), id: 'three')
        ''', 0.2)

        then:
        st.clocks()*.id == ['one', 'three']
    }

    def "two clocks claiming connected sources is a located error"() {
        when:
        Engine.load('clocks.groovy', '''
            def s = sine(440)
            clock.assignNew(id: 'a', [s])
            clock.assignNew(id: 'b', [amplify(2, s)])
            output.dummy(s)
        ''')

        then:
        ScriptError e = thrown()
        e.message.startsWith("clocks.groovy:4: clock.assignNew(id: 'b'): these sources are connected to sources already on clock 'a' (line 3)")
    }

    def "thread mode gives the same stream as task mode"() {
        when:
        render('''
            output.file(wav(), 'OUT', sine(440).tracks(duration: 0.5))
        ''', 1, ['clock.task': 'false'])

        then:
        wav().frames == 44100
    }

    def "thread.run repeats with every: and a failing function does not stop the station"() {
        given:
        Station st = Engine.load('t.groovy', '''
            def n = 0
            thread.run(every: 0.05) { -> n++; if (n == 2) throw new IllegalStateException('boom (expected by the test)'); log.info("run ${n}") }
            output.dummy(sine())
        ''')

        when:
        st.start(null)
        Thread.sleep(400)
        st.stop()

        then:
        st.scriptLog().recent().size() >= 4
        st.scriptLog().recent()[0..1] == ['info: run 1', 'info: run 3']
    }

    def "runtime.scheduler reports the scheduler's load to scripts"() {
        given:
        Station st = Engine.load('t.groovy', '''
            output.dummy(sine(440))
            thread.run(delay: 0.5) { -> def l = runtime.scheduler(); log.info("${l.threads > 0} ${l.busy > 0} ${l.busy < 1} ${l.blockingQueued == 0}") }
        ''')

        when: 'half a second in real time'
        st.start(null)
        Thread.sleep(800)
        st.stop()

        then:
        st.scriptLog().recent() == ['info: true true true true']
    }

    def "runtime.memory and time.up read the process"() {
        when:
        def st = Engine.load('t.groovy', '''
            def m = runtime.memory()
            log.info("${m.heapUsed > 0} ${m.private >= 0} ${time.up() >= 0}")
            output.dummy(sine())
        ''')

        then:
        st.scriptLog().recent() == ['info: true true true']
    }
}
