package org.groovecast.scripts.scripting

import java.time.Duration
import org.groovecast.api.Source
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import spock.lang.Specification
import spock.lang.Tag

@Tag("integration")
class CallbackReleaseSpec extends Specification {
    def "a switch whose selection callback registers onMetadata keeps a flat registration count over 10,000 selections"() {
        given: 'tracks of one frame, so every frame is a new selection'
        Station station = Engine.load('switch-release.groovy', '''
            settings.frame.duration = 0.02
            def a = sine(440).tracks(duration: 0.02, id: 'a')
            def b = sine(660).tracks(duration: 0.02, id: 'b')
            def selections = 0
            def s = switchOn(onSelect: { src ->
                selections++
                // user code registering on the selected source every time it is selected
                a.onMetadata { m -> log.info("a: ${m}") }
                b.onMetadata { m -> log.info("b: ${m}") }
            }, [[{ -> selections % 2 == 0 }, a], [{ -> true }, b]])
            s.onTrack { m -> if (selections % 2500 == 0) log.info("selections ${selections}") }
            output.dummy(s, fallible: true)
        ''', ['clock.sync': 'none'])
        Source a = station.graph().sources().find { it.id() == 'a' }
        Source b = station.graph().sources().find { it.id() == 'b' }

        when: '10,000 frames, each a selection'
        station.start(Duration.ofMillis(10_000 * 20))
        assert station.awaitStopped(Duration.ofSeconds(60))

        then: 'the script saw its selections'
        station.scriptLog().recent().contains('info: selections 10000')

        and: 'only the registrations of the current selection remain'
        a.registrations() <= 1
        b.registrations() <= 1
    }

    def "without releasing, the same pattern piles up one registration per selection (the test can fail)"() {
        given:
        Station station = Engine.load('switch-leak.groovy', '''
            def a = sine(440).tracks(duration: 0.02, id: 'a')
            def n = 0
            def s = switchOn([[{ -> n++; true }, a]])
            s.onTrack { m -> a.onMetadata { x -> } } // a callback of the switch itself is not collected
            output.dummy(s, fallible: true)
        ''', ['clock.sync': 'none'])
        Source a = station.graph().sources().find { it.id() == 'a' }

        when:
        station.start(Duration.ofMillis(100 * 20))
        assert station.awaitStopped(Duration.ofSeconds(30))

        then:
        a.registrations() >= 99
    }

    def "source.collectCallbackReleases returns the value and one release for what the call registered"() {
        when:
        Station station = Engine.load('collect.groovy', '''
            def a = sine(440, id: 'a')
            a.onTrack { m -> }
            def r = source.collectCallbackReleases([a]) { ->
                a.onMetadata { m -> }
                a.onFrame(before: true) { -> }
                42
            }
            log.info("value ${r.value}, registrations ${a.registrations()}")
            r.release()
            log.info("after release ${a.registrations()}")
            output.dummy(a)
        ''')

        then:
        station.scriptLog().recent() == ['info: value 42, registrations 3', 'info: after release 1']
    }
}
