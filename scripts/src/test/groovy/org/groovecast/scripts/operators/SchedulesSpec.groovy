package org.groovecast.scripts.operators

import java.nio.file.Path
import java.time.Duration
import java.time.LocalTime
import org.groovecast.api.Source
import org.groovecast.host.Station
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir
import spock.lang.Unroll

/**
 * Schedules and composition: time conditions for switchOn against an injected clock time
 * (settings.clock.startTime), delay, maxDuration, buffer and onLeave. Every render is unsynced,
 * 44.1 kHz with 20 ms frames (882 samples), and checked to the sample where a source starts.
 */
@Tag("integration")
class SchedulesSpec extends Specification {
    static final int RATE = 44100

    @TempDir
    Path dir

    Station render(String script, double seconds, String startTime = null) {
        Map<String, String> settings = startTime == null ? [:] : ['clock.startTime': startTime]
        Engine.render('t.groovy', script.replace('OUT', dir.resolve('out.wav').toString()), seconds, settings)
    }

    Wav wav() { Wav.read(dir.resolve('out.wav')) }

    static boolean near(double f, double expected) { Math.abs(f - expected) < 3 }

    /**
     * Whether a sine of {@code freq} (amplitude 0.5) starts at phase 0 exactly at sample {@code at}: a source
     * switched in one sample early or late, or one that had played before, would not match.
     */
    static boolean sineStartsAt(Wav w, int at, double freq) {
        (0..<300).every { k ->
            Math.abs(w.floats[0][at + k] - 0.5 * Math.sin(2 * Math.PI * freq * k / RATE)) < 1e-4
        } && Math.abs(w.floats[0][at - 1] - 0.5 * Math.sin(-2 * Math.PI * freq / RATE)) > 1e-3
    }

    @Unroll
    def "time.between('22h', '6h') plays the night source at #start and the day source otherwise"() {
        when:
        render('''
            def night = sine(440, amplitude: 0.5)
            def day = sine(880, amplitude: 0.5)
            output.file(wav(), 'OUT', switchOn([[time.between('22h', '6h'), night], [true, day]]), fallible: true)
        ''', 1, start)

        then:
        near(wav().frequency(0.1, 0.9), freq)

        where:
        start                 | freq
        '2025-01-06T23:00:00' | 440
        '2025-01-07T03:00:00' | 440
        '2025-01-06T07:00:00' | 880
        '2025-01-06T21:59:00' | 880
    }

    def "at 06:00 the switch moves to the day source at the first track boundary after it, to the sample"() {
        when: 'tracks of 3 s from 05:59:55: boundaries at 05:59:58 (still night) and 06:00:01'
        render('''
            def night = sine(440, amplitude: 0.5).tracks(duration: 3)
            def day = sine(880, amplitude: 0.5).tracks(duration: 3)
            output.file(wav(), 'OUT', switchOn([[time.between('22h', '6h'), night], [time.between('6h', '22h'), day]]),
                    fallible: true)
        ''', 9, '2025-01-06T05:59:55')
        def w = wav()

        then:
        near(w.frequency(0.1, 5.9), 440)
        sineStartsAt(w, 6 * RATE, 880)
        near(w.frequency(6.1, 8.9), 880)
    }

    def "time.between wraps within the hour with minutes, and bounds with different units are a script error"() {
        when:
        render('''
            def a = sine(440, amplitude: 0.5).tracks(duration: 1)
            def b = sine(880, amplitude: 0.5).tracks(duration: 1)
            output.file(wav(), 'OUT', switchOn([[time.between('50m', '10m'), a], [true, b]]), fallible: true)
        ''', 3, '2025-01-06T13:09:58')
        def w = wav()

        then: '13:09:58 is within 50m-10m of hour 13, 13:10:00 is not'
        near(w.frequency(0.1, 1.9), 440)
        sineStartsAt(w, 2 * RATE, 880)

        when:
        Engine.load('t.groovy', '''
            output.dummy(mksafe(switchOn([[time.between('22h', '30m'), sine()]])))
        ''')

        then:
        ScriptError e = thrown()
        e.message.startsWith("t.groovy:2: time.between(): '22h' and '30m' must both start with hours")
    }

    def "time.weekday takes days and ranges, 1 = Monday to 7 = Sunday"() {
        when: 'Sunday 2025-01-05 23:59:58, then Monday at 2 s'
        render('''
            def weekend = sine(440, amplitude: 0.5).tracks(duration: 1)
            def week = sine(880, amplitude: 0.5).tracks(duration: 1)
            output.file(wav(), 'OUT', switchOn([[time.weekday(6, 7), weekend], [time.weekday(1..5), week]]), fallible: true)
        ''', 4, '2025-01-05T23:59:58')
        def w = wav()

        then:
        near(w.frequency(0.1, 1.9), 440)
        sineStartsAt(w, 2 * RATE, 880)
        near(w.frequency(2.1, 3.9), 880)
    }

    def "a day outside 1-7 is a script error with its line"() {
        when:
        Engine.load('t.groovy', '''
            def s = sine()
            output.dummy(mksafe(switchOn([[time.weekday(0), s]])))
        ''')

        then:
        ScriptError e = thrown()
        e.message == 't.groovy:3: time.weekday(): days are 1 (Monday) to 7 (Sunday), got 0'
    }

    def "conditions combine with &, | and ~"() {
        when: 'Monday 21:59:58: only "weekend | 21h-22h" holds; from 22:00 "Monday & night" holds'
        render('''
            def notMonday = sine(330, amplitude: 0.5).tracks(duration: 2)
            def mondayNight = sine(440, amplitude: 0.5).tracks(duration: 2)
            def weekendOrEvening = sine(660, amplitude: 0.5).tracks(duration: 2)
            def other = sine(880, amplitude: 0.5).tracks(duration: 2)
            def monday = time.weekday(1)
            output.file(wav(), 'OUT', switchOn([
                    [~monday, notMonday],
                    [monday & time.between('22h', '6h'), mondayNight],
                    [time.weekday(6, 7) | time.between('21h', '22h'), weekendOrEvening],
                    [true, other]]), fallible: true)
        ''', 4, '2025-01-06T21:59:58')
        def w = wav()

        then:
        near(w.frequency(0.1, 1.9), 660)
        sineStartsAt(w, 2 * RATE, 440)
        near(w.frequency(2.1, 3.9), 440)
    }

    @Unroll
    def "#expression on conditions is a script error instead of a switch that never changes"() {
        when:
        Engine.load('t.groovy', """
            def s = sine()
            output.dummy(mksafe(switchOn([[${expression}, s]])))
        """)

        then:
        ScriptError e = thrown()
        e.message.startsWith('t.groovy:3: a condition holds or not only while a clock runs')

        where:
        expression << ['!time.weekday(1)', 'time.weekday(1) && time.weekday(2)', 'time.weekday(1) || time.weekday(2)',
                       '(time.weekday(1) ? true : false)']
    }

    def "time.at is seen at the first track boundary after the instant, once"() {
        when: 'music tracks of 3 s from 05:59:58: the top of the hour passes mid-track, at 2 s'
        render('''
            def jingle = sine(660, amplitude: 0.5).tracks(duration: 1)
            def music = sine(440, amplitude: 0.5).tracks(duration: 3)
            output.file(wav(), 'OUT', switchOn([[time.at('0m0s'), jingle], [true, music]]), fallible: true)
        ''', 8, '2025-01-06T05:59:58')
        def w = wav()

        then:
        near(w.frequency(0.1, 2.9), 440)
        sineStartsAt(w, 3 * RATE, 660)
        near(w.frequency(4.1, 7.9), 440)
    }

    def "time.at polled by a fallback that is not track-sensitive cuts in on the dot"() {
        when:
        render('''
            def jingle = sine(660, amplitude: 0.5).tracks(duration: 1)
            def music = sine(440, amplitude: 0.5)
            def top = switchOn([[time.at('0m0s'), jingle]])
            output.file(wav(), 'OUT', fallback(trackSensitive: false, top, music))
        ''', 6, '2025-01-06T06:59:57.5')
        def w = wav()

        then: '07:00:00 is 2.5 s in (the music cut there fades out over that frame, under the jingle)'
        near(w.frequency(0.1, 2.4), 440)
        near(w.frequency(2.52, 3.4), 660)
        near(w.frequency(3.6, 5.9), 440)
    }

    def "on a real-time clock conditions read the wall clock"() {
        given: 'a window from the current minute to two minutes later'
        LocalTime now = LocalTime.now()
        LocalTime later = now.plusMinutes(2)
        Station st = Engine.load('t.groovy', """
            def s = switchOn([[time.between('${now.hour}h${now.minute}m', '${later.hour}h${later.minute}m'), sine(440)]])
            s.onTrack { m -> log.info('on') }
            output.dummy(mksafe(s))
        """)

        when:
        st.start(null)
        Thread.sleep(300)
        st.stop()

        then:
        st.scriptLog().recent() == ['info: on']
    }

    def "the example of docs/guide/schedules.md runs"() {
        when: 'its playlists replaced by tones'
        def st = render('''
            def night = sine(440).tracks(duration: 1)
            def day = sine(660).tracks(duration: 1)
            def jingles = sine(880).tracks(duration: 1)
            def radio = switchOn([
                    [time.at('0m0s'), jingles],                                  // after the track playing at the top of the hour
                    [time.between('22h', '6h') | time.weekday(7), night],
                    [true, day]],
                    onSelect: { s -> log.info("on air: ${s.id}") }, onLeave: { s -> log.info("off air: ${s.id}") })
            output.file(wav(), 'OUT', mksafe(radio))
        ''', 2, '2025-01-06T05:59:59')

        then:
        st.scriptLog().recent().size() == 3
    }

    def "a bad clock.startTime is a script error"() {
        when:
        Engine.load('t.groovy', 'output.dummy(sine())', ['clock.startTime': 'tomorrow'])

        then:
        ScriptError e = thrown()
        e.message.contains("settings.clock.startTime expects an ISO-8601 date-time such as 2025-01-06T05:59:55, got 'tomorrow'")
    }

    def "delay lets a jingle play at most every 3 s in a fallback"() {
        when: 'jingles of 0.5 s, music tracks of 1 s'
        def st = render('''
            def jingle = sine(880, amplitude: 0.5).tracks(duration: 0.5, id: 'jingle')
            def music = sine(440, amplitude: 0.5).tracks(duration: 1)
            jingle.onTrack { m -> log.info('jingle') }
            output.file(wav(), 'OUT', fallback(delay(3, jingle), music))
        ''', 8)
        def w = wav()

        then: 'jingle at 0, 3.5 (0.5 + 3) and 7; music between'
        st.scriptLog().recent() == ['info: jingle'] * 3
        near(w.frequency(0.05, 0.45), 880)
        near(w.frequency(0.55, 3.45), 440)
        sineStartsAt(w, (int) (3.5 * RATE), 880)
        near(w.frequency(4.05, 6.95), 440)
        sineStartsAt(w, 7 * RATE, 880)
    }

    def "delay counts from where a cut ended the track"() {
        when: 'a live-like source cut by a higher one after 0.5 s is then unavailable for 2 s'
        def st = render('''
            def n = 0
            def jingle = delay(2, sine(880, amplitude: 0.5).tracks(duration: 10))
            def music = sine(440, amplitude: 0.5)
            def s = fallback(trackSensitive: false, switchOn(trackSensitive: false, [[{ -> n >= 25 && n < 75 }, blank()]]), jingle, music)
            s.onFrame { -> n++ }
            output.file(wav(), 'OUT', s)
        ''', 4)
        def w = wav()

        then: 'jingle [0, 0.5), silence [0.5, 1.5), music [1.5, 2.5) while resting, jingle from 2.5 s'
        near(w.frequency(0.05, 0.45), 880)
        w.floats[0][(int) (0.6 * RATE)..<(int) (1.4 * RATE)].every { it == 0f }
        near(w.frequency(1.55, 2.45), 440)
        near(w.frequency(2.55, 3.95), 880)
    }

    def "maxDuration cuts each track to the sample and skips the rest of it"() {
        when: 'tracks of 4 s cut after 1.01 s, so each source of the sequence plays 1.01 s'
        render('''
            def a = sine(440, amplitude: 0.5).tracks(duration: 4)
            def b = sine(880, amplitude: 0.5).tracks(duration: 4)
            def c = sine(660, amplitude: 0.5).tracks(duration: 4)
            output.file(wav(), 'OUT', maxDuration(1.01, sequence(a, b, c)))
        ''', 3)
        def w = wav()
        int cut = (int) Math.round(1.01 * RATE)

        then:
        near(w.frequency(0.05, 1.0), 440)
        sineStartsAt(w, cut, 880)
        near(w.frequency(1.02, 2.0), 880)
        sineStartsAt(w, 2 * cut, 660)
        near(w.frequency(2.03, 2.95), 660)
    }

    def "a cut track leaves no empty track behind: maxDuration in a rotation keeps its turns"() {
        when:
        render('''
            def music = sequence(sine(440, amplitude: 0.5).tracks(duration: 4), sine(880, amplitude: 0.5).tracks(duration: 4))
            def jingle = sine(660, amplitude: 0.5).tracks(duration: 1)
            output.file(wav(), 'OUT', rotate(maxDuration(1, music), jingle))
        ''', 4)
        def w = wav()

        then: 'cut 440, jingle, then the next track of the sequence (not a second jingle), jingle'
        [w.frequency(0.05, 0.95), w.frequency(1.05, 1.95), w.frequency(2.05, 2.95), w.frequency(3.05, 3.95)]
                .collect { Math.round(it / 10) * 10 } == [440, 660, 880, 660]
        sineStartsAt(w, 2 * RATE, 880)
    }

    def "buffer plays once buffer: seconds are in, to the sample, and then what its source played"() {
        when:
        render('''
            def live = once(sine(440, amplitude: 0.5).tracks(duration: 2))
            output.file(wav(), 'OUT', mksafe(buffer(live, buffer: 0.5, max: 10)))
        ''', 4)
        def w = wav()

        then:
        w.floats[0][0..<(int) (0.5 * RATE)].every { it == 0f }
        sineStartsAt(w, (int) (0.5 * RATE), 440)
        near(w.frequency(0.55, 2.45), 440)
        w.floats[0][(int) (2.5 * RATE)..<w.frames].every { it == 0f }
    }

    def "a buffer passes its source's metadata and track ends, once each"() {
        when: 'tracks of 0.51 s (ending mid-frame) through a buffer, taking turns with gaps of 0.1 s'
        def st = render('''
            def live = sine(440).tracks(duration: 0.51)
            live.insertMetadata(title: 'hello')
            def b = buffer(live, buffer: 0.2, max: 5)
            def gap = blank(duration: 0.1)
            b.onTrack { m -> log.info('b') }
            b.onMetadata { m -> log.info(m.title) }
            gap.onTrack { m -> log.info('gap') }
            output.dummy(rotate(b, gap))
        ''', 1.5)

        then: 'gaps until 0.2 s are in, then one turn each'
        st.scriptLog().recent() == ['gap', 'gap', 'b', 'hello', 'gap', 'b', 'gap', 'b'].collect { 'info: ' + it }
    }

    def "a full buffer drops its oldest samples: played late, it plays the newest max: seconds"() {
        when: 'the source plays 440 Hz for 1 s, then 880 Hz; the buffer is played only from 3 s on'
        render('''
            def n = 0
            def live = sequence(sine(440, amplitude: 0.5).tracks(duration: 1), sine(880, amplitude: 0.5))
            def b = buffer(live, buffer: 0.5, max: 1)
            def s = switchOn(trackSensitive: false, [[{ -> n >= 150 }, b], [true, blank()]])
            s.onFrame { -> n++ }
            output.file(wav(), 'OUT', s, fallible: true)
        ''', 5)
        def w = wav()

        then: 'from 3 s it plays what the source played in [2, 3): 880 Hz, never the 440 Hz of [0, 1)'
        w.floats[0][0..<3 * RATE].every { it == 0f }
        near(w.frequency(3.0, 4.95), 880)
    }

    def "onLeave is called when each selection ends, after its onSelect"() {
        when:
        def st = render('''
            def a = blank(duration: 0.1, id: 'a')
            def b = blank(duration: 0.1, id: 'b')
            def r = rotate(onSelect: { s -> log.info("select ${s.id}") }, onLeave: { s -> log.info("leave ${s.id}") }, a, b)
            output.dummy(r)
        ''', 0.4)

        then:
        st.scriptLog().recent() == ['select a', 'leave a', 'select b', 'leave b', 'select a', 'leave a', 'select b']
                .collect { 'info: ' + it }
    }

    def "onLeave on a fallback runs when its source runs dry or is cut"() {
        when:
        def st = render('''
            def n = 0
            def first = once(blank(duration: 0.1), id: 'first')
            def live = switchOn(id: 'live', [[{ -> n >= 10 }, blank()]])
            def f = fallback(trackSensitive: false, onLeave: { s -> log.info("leave ${s.id} at ${n}") }, live, first, blank(id: 'rest'))
            f.onFrame { -> n++ }
            output.dummy(f)
        ''', 0.4)

        then:
        st.scriptLog().recent() == ['info: leave first at 5', 'info: leave rest at 10']
    }

    def "a cut to another input calls its onSelect once, and onLeave once when it ends"() {
        when: 'the first input is ready from frame 10 to 20; the fallback cuts to it and back'
        def st = render('''
            def n = 0
            def live = switchOn(id: 'live', trackSensitive: false, [[{ -> n >= 10 && n < 20 }, sine(880)]])
            def f = fallback(trackSensitive: false, live, sine(440, id: 'music'),
                    onSelect: { s -> log.info("select ${s.id} at ${n}") }, onLeave: { s -> log.info("leave ${s.id} at ${n}") })
            f.onFrame { -> n++ }
            output.dummy(f)
        ''', 0.6)

        then:
        st.scriptLog().recent() == ['select music at 0', 'leave music at 10', 'select live at 10', 'leave live at 20',
                                    'select music at 20'].collect { 'info: ' + it }
    }

    def "what onLeave registers is released at its next call and at the stop: 2,000 selections keep a flat count"() {
        given:
        Station station = Engine.load('leave-release.groovy', '''
            def a = sine(440).tracks(duration: 0.02, id: 'a')
            def b = sine(660).tracks(duration: 0.02, id: 'b')
            def n = 0
            def s = rotate(onLeave: { src ->
                a.onMetadata { m -> }
                b.onMetadata { m -> }
                if (++n % 500 == 0) log.info("${n}: ${a.registrations()} ${b.registrations()}")
            }, a, b)
            output.dummy(s)
        ''', ['clock.sync': 'none'])
        Source a = station.graph().sources().find { it.id() == 'a' }
        Source b = station.graph().sources().find { it.id() == 'b' }

        when:
        station.start(Duration.ofMillis(2_000 * 20))
        assert station.awaitStopped(Duration.ofSeconds(60))

        then: 'only the registrations of the last call while running, none after the stop'
        station.scriptLog().recent() == ['500: 1 1', '1000: 1 1', '1500: 1 1'].collect { 'info: ' + it }
        a.registrations() == 0
        b.registrations() == 0
    }
}
