package org.groovecast.scripts.liquidsoap

import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** .liq stations rendered offline: the graph a Liquidsoap script builds plays as the Groovy one would. */
@Tag("integration")
class LiquidsoapRenderSpec extends Specification {
    @TempDir
    Path dir

    def "a sine into output.file(%wav) renders its tone, and the graph records the script's lines"() {
        given:
        Path out = dir.resolve('out.wav')

        when:
        Station station = Engine.render('tone.liq', """\
            # a comment
            s = sine(amplitude=0.5, 440.)
            output.file(%wav, "${out}", s)
            """.stripIndent(), 3)
        Wav wav = Wav.read(out)

        then:
        Math.abs(wav.frequency(0.5, 2.5) - 440) < 2
        station.graph().outputs().size() == 1
        // (no Groovy call on a source here: the first would fix its meta class before a Groovy station installs the engine's)
        station.graph().sources().size() >= 2
    }

    def "metadata.map, on_metadata and switch with a time predicate that always holds"() {
        given:
        Path out = dir.resolve('out.wav')

        when:
        Station station = Engine.render('sw.liq', """\
            titles = ref([])
            a = sine(660.)
            b = sine(440.)
            s = switch(track_sensitive=false, [({ 0h-24h }, a), ({ true }, b)])
            s = metadata.map(fun (m) -> [("title", "mapped " ^ m["title"])], s)
            s.on_metadata(synchronous=true, fun (m) -> titles := m["title"] :: titles())
            output.file(%wav, "${out}", mksafe(s))
            thread.run(delay=1.5, fun () -> print("titles: #{titles()}"))
            """.stripIndent(), 2)
        Wav wav = Wav.read(out)

        then:
        Math.abs(wav.frequency(0.5, 1.5) - 660) < 2
    }

    def "a switch's time predicate is the engine's condition: a window that excludes now plays the other case"() {
        given: 'a window two hours from now, whatever the hour'
        int from = (java.time.LocalTime.now().hour + 2) % 24
        int to = (from + 1) % 24
        Path out = dir.resolve('out.wav')

        when:
        Engine.render('when.liq', """\
            s = switch([({ ${from}h-${to}h }, sine(880.)), ({ 0m-59m }, sine(550.)), ({ true }, sine(440.))])
            output.file(%wav, "${out}", mksafe(s))
            """.stripIndent(), 2)

        then: 'not the window, but every minute of the hour'
        Math.abs(Wav.read(out).frequency(0.5, 1.5) - 550) < 2
    }
}
