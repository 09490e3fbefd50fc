package org.groovecast.scripts.operators

import ch.qos.logback.classic.Level
import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.host.script.ClosureFunction
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Wav
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir
import spock.lang.Unroll

/** fallback/switchOn: replayMetadata and transitions, rendered offline (sample-accurate, 20 ms frames). */
@Tag("integration")
class SwitchTransitionsSpec extends Specification {
    @TempDir
    Path dir

    Station render(String script, double seconds) {
        Engine.render('switches.groovy', script.replace('DIR', dir.toString()), seconds)
    }

    static List<String> titles(Station st) {
        st.scriptLog().recent().findAll { it.startsWith('info: title ') }.collect { it - 'info: title ' }
    }

    @Unroll
    def "switching back to a source in the middle of its track sends its title again (replayMetadata: #replay)"() {
        when: 'a for 0.5 s, b for 0.5 s, a again mid-track, b again: each titled once, at its first data'
        Station st = render("""
            def frames = 0
            def a = sine(440, id: 'a')
            a.onFrame { -> frames++ }
            a.insertMetadata(title: 'A')
            def b = sine(660)
            b.insertMetadata(title: 'B')
            def s = switchOn(trackSensitive: false, replayMetadata: ${replay},
                    [[{ -> frames.intdiv(25) % 2 == 0 }, a], [true, b]])
            s.onMetadata { m -> log.info("title \${m.title}") }
            output.dummy(s, fallible: true)
        """, 1.9)

        then:
        titles(st) == expected

        where:
        replay | expected
        true   | ['A', 'B', 'A', 'B']
        false  | ['A', 'B']
    }

    def "a switch onto a track start sends that track's own title, not the last one again"() {
        given: 'two playlists of 1 s titled tracks, switched at track boundaries'
        List<Path> aa = (1..3).collect { Media.tones("rm-a${it}.wav", [440], 1, "A${it}", ['-c:a', 'pcm_s16le']) }
        List<Path> bb = (1..3).collect { Media.tones("rm-b${it}.wav", [660], 1, "B${it}", ['-c:a', 'pcm_s16le']) }

        when:
        Station st = render("""
            def frames = 0
            def a = playlist(${aa.collect { "'${it}'" }}, mode: 'normal')
            def b = playlist(${bb.collect { "'${it}'" }}, mode: 'normal')
            def s = switchOn([[{ -> frames.intdiv(50) % 2 == 0 }, a], [true, b]])
            s.onFrame { -> frames++ }
            s.onMetadata { m -> log.info("title \${m.title}") }
            output.dummy(s, fallible: true)
        """, 4.5)

        then: 'each track titled once, a second time for none'
        titles(st) == ['A1', 'B1', 'A2', 'B2', 'A3']
    }

    def "transitions: the music fades out while the live source fades in, and the other way back"() {
        when: 'live from frame 51 (1.02 s) to frame 150 (3.02 s), linear 1 s transitions'
        render('''
            def frames = 0
            def music = sine(440, amplitude: 0.5)
            music.onFrame { -> frames++ }
            def live = sine(880, amplitude: 0.5)
            def xfade = { from, to ->
                add(normalize: false, [fade.out(from, duration: 1, type: 'lin'), fade.in(to, duration: 1, type: 'lin')])
            }
            def s = switchOn(trackSensitive: false, transitionLength: 1, transitions: [xfade, xfade],
                    [[{ -> frames > 50 && frames <= 150 }, live], [true, music]])
            output.file(wav(samplesize: 24), 'DIR/out.wav', s, fallible: true)
        ''', 5)
        Wav w = Wav.read(dir.resolve('out.wav'))
        Closure<Double> music = { double t -> w.amplitude(440, t, t + 0.1) }
        Closure<Double> live = { double t -> w.amplitude(880, t, t + 0.1) }

        then: 'the music alone first'
        Math.abs(music(0.5) - 0.5) < 0.01
        live(0.5) < 0.01

        and: 'across the switch at 1.02 s: a quarter of the way, then three quarters (the window centres)'
        Math.abs(music(1.22) - 0.5 * 0.75) < 0.02
        Math.abs(live(1.22) - 0.5 * 0.25) < 0.02
        Math.abs(music(1.72) - 0.5 * 0.25) < 0.02
        Math.abs(live(1.72) - 0.5 * 0.75) < 0.02

        and: 'the live source alone once the transition is over, the music gone'
        Math.abs(live(2.5) - 0.5) < 0.01
        music(2.5) < 0.01

        and: 'and the same way back from 3.02 s'
        Math.abs(live(3.22) - 0.5 * 0.75) < 0.02
        Math.abs(music(3.22) - 0.5 * 0.25) < 0.02
        Math.abs(music(4.5) - 0.5) < 0.01
        live(4.5) < 0.01
    }

    def "a transition plays at most transitionLength, then the new source goes on in the same track"() {
        when: 'a transition that would play a 660 Hz tone forever, cut at 0.5 s'
        Station st = render('''
            def frames = 0
            def a = sine(440, amplitude: 0.5)
            a.onFrame { -> frames++ }
            def b = sine(880, amplitude: 0.5)
            def s = switchOn(trackSensitive: false, transitionLength: 0.5,
                    transitions: [null, { from, to -> sine(660, amplitude: 0.5) }],
                    [[{ -> frames <= 50 }, a], [true, b]])
            s.onTrack { m -> log.info('track') }
            output.file(wav(), 'DIR/out.wav', s, fallible: true)
        ''', 3)
        Wav w = Wav.read(dir.resolve('out.wav'))

        then:
        Math.abs(w.frequency(0.2, 0.9) - 440) < 3
        Math.abs(w.frequency(1.05, 1.5) - 660) < 3
        Math.abs(w.frequency(1.6, 2.9) - 880) < 3

        and: 'two tracks: before the switch, and the transition with the source after it'
        st.scriptLog().recent().count { it == 'info: track' } == 2
    }

    def "1,000 switches with transitions keep the registration count flat"() {
        when: 'a switch every 5 frames (0.1 s), each with a transition that registers on both sources and on its ends'
        Station st = render('''
            def frames = 0
            def a = sine(440, id: 'a')
            a.onFrame { -> frames++ }
            def b = sine(660, id: 'b')
            def calls = 0
            def t = { from, to ->
                a.onMetadata { m -> }
                b.onTrack { m -> }
                to.onMetadata { m -> }
                from.onTrack { m -> }
                calls++
                if (calls % 500 == 0) log.info("transitions ${calls}")
                add(normalize: false, [fade.out(from, duration: 0.04), fade.in(to, duration: 0.04)])
            }
            def s = switchOn(trackSensitive: false, transitionLength: 0.04, transitions: [t, t],
                    [[{ -> frames.intdiv(5) % 2 == 0 }, a], [true, b]])
            output.dummy(s, fallible: true)
        ''', 100.1)
        def a = st.graph().sources().find { it.id() == 'a' }
        def b = st.graph().sources().find { it.id() == 'b' }

        then: 'the transitions ran'
        st.scriptLog().recent().contains('info: transitions 500')
        st.scriptLog().recent().contains('info: transitions 1000')

        and: 'nothing of theirs is left: a keeps only its own onFrame'
        a.registrations() == 1
        b.registrations() == 0
    }

    def "a transition function that fails or returns no source gives a plain switch, logged once"() {
        given:
        def logged = new LogList()
        logged.start()
        def log = (Logger) LoggerFactory.getLogger('org.groovecast.core')
        log.addAppender(logged)
        def functions = new LogCapture(ClosureFunction.name)

        when: 'four switches, each asking a broken transition'
        render('''
            def frames = 0
            def a = sine(440, amplitude: 0.5)
            a.onFrame { -> frames++ }
            def b = sine(880, amplitude: 0.5)
            def s = fallback(trackSensitive: false, transitions: [{ from, to -> throw new IllegalStateException('boom') },
                    { from, to -> 'not a source' }], switchOn(trackSensitive: false, [[{ -> frames.intdiv(25) % 2 == 1 }, b]]), a)
            output.file(wav(), 'DIR/out.wav', s)
        ''', 2)
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the switches happened, without transition'
        Math.abs(w.frequency(0.1, 0.45) - 440) < 3
        Math.abs(w.frequency(0.55, 0.95) - 880) < 3
        Math.abs(w.frequency(1.05, 1.45) - 440) < 3

        and: 'the function that failed logged once by the engine, at its line'
        functions.messages() == ['a script function failed, the station goes on: switches.groovy:6: IllegalStateException: boom']

        and: 'one warning for the switch, naming what the other one returned'
        def warnings = logged.list.findAll { it.level == Level.WARN }*.formattedMessage
        warnings.size() == 1
        warnings[0] =~ /the transition to .* returned not a source, not a source; switching without it \(logged once\)/

        cleanup:
        log?.detachAppender(logged)
        functions?.close()
    }

    def "more transitions than sources, or a transition that is not a function, is a script error"() {
        when:
        Engine.load('bad.groovy', text)

        then:
        ScriptError e = thrown()
        e.message == 'bad.groovy:1: ' + message

        where:
        text                                                                       | message
        "output.dummy(fallback(transitions: [{ a, b -> b }, { a, b -> b }], sine()))" | 'fallback(): 2 transitions for 1 sources'
        "output.dummy(switchOn(transitions: ['x'], [[true, sine()]]), fallible: true)" | 'switchOn(): transitions[0] must be a function { from, to -> source } or null, got x'
        "output.dummy(fallback(transitionLength: -1, sine()))"                     | 'fallback(): transitionLength must be between 0 and 60 seconds, got -1.0'
    }
}
