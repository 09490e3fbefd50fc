package org.groovecast.scripts

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import spock.lang.Specification
import spock.lang.TempDir

/** Every station script shipped in scripts/ compiles, checks and plays. */
class ShippedScriptsSpec extends Specification {
    @TempDir
    Path dir

    static List<Path> shipped() {
        Files.list(Engine.SCRIPTS).withCloseable { s -> s.filter { it.toString().endsWith('.groovy') }.sorted().toList() }
    }

    def "scripts/ ships the tone example and the default station"() {
        expect:
        shipped()*.fileName*.toString().containsAll(['radio.groovy', 'tone.groovy'])
    }

    def "#name renders 5 s offline without an error"() {
        when:
        Path out = dir.resolve(name + '.wav')
        Station station = Station.load(script, Engine.plugins().functions(), ['clock.sync': 'none'],
                [OUT: out.toString(), RADIO_OUT: out.toString()])
        station.start(java.time.Duration.ofSeconds(5))
        assert station.awaitStopped(java.time.Duration.ofSeconds(60))

        then:
        Wav.read(out).seconds == 5.0d

        where:
        script << shipped()
        name = script.fileName.toString()
    }
}
