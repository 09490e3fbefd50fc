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
        shipped()*.fileName*.toString().containsAll(['radio.groovy', 'tone.groovy', 'shared-encodes.groovy'])
    }

    def "#name renders 5 s offline without an error"() {
        when:
        Path out = dir.resolve(name + '.wav')
        Station station = Station.load(script, Engine.plugins().functions(), ['clock.sync': 'none'],
                [OUT: out.toString(), RADIO_OUT: out.toString(), OUT_DIR: dir.toString(),
                 MUSIC: Media.mp3('shipped.mp3', [440], 2).toString()])
        station.start(java.time.Duration.ofSeconds(5))

        then: 'it stops by itself after 5 s of stream, having written what it writes'
        station.awaitStopped(java.time.Duration.ofSeconds(60))
        !Files.exists(out) || Wav.read(out).seconds == 5.0d
        Files.list(dir).withCloseable { it.count() } > 0

        where:
        script << shipped()
        name = script.fileName.toString()
    }
}
