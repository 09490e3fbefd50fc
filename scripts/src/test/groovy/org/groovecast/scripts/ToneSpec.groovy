package org.groovecast.scripts

import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import org.groovecast.host.Station
import spock.lang.Specification
import spock.lang.TempDir

class ToneSpec extends Specification {
    @TempDir
    Path dir

    def "tone.groovy renders alternating 2 s tracks of 440 and 660 Hz with an onTrack per track"() {
        given:
        Path out = dir.resolve('tone.wav')

        when: 'ten seconds rendered on an unsynced clock'
        Station station = Engine.render(Engine.SCRIPTS.resolve('tone.groovy'), 10, [:], out)
        Wav wav = Wav.read(out)

        then: 'exactly ten seconds, stereo 44.1 kHz'
        wav.channels == 2
        wav.sampleRate == 44100
        wav.frames == 441000

        and: 'the tone alternates every two seconds'
        (0..<5).collect { Math.round(wav.frequency(it * 2 + 0.1, it * 2 + 1.9) / 10) * 10 } == [440, 660, 440, 660, 440]

        and: 'onTrack fired once per track'
        station.scriptLog().recent().count { it == 'info: new track' } == 5
    }

    def "in real time, a 3 s run produces 3 s of audio within one frame"() {
        given:
        Path out = dir.resolve('realtime.wav')
        Station station = Engine.load(Engine.SCRIPTS.resolve('tone.groovy'), [:], out)

        when:
        long start = System.nanoTime()
        station.start(null)
        Thread.sleep(3000)
        station.stop()
        double wall = (System.nanoTime() - start) / 1e9
        Wav wav = Wav.read(out)

        then:
        Math.abs(wav.seconds - wall) <= 0.02 + 0.005
        wav.seconds >= 2.95
    }
}
