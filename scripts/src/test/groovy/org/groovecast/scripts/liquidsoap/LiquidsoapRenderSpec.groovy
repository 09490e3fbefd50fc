package org.groovecast.scripts.liquidsoap

import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.Engine
import org.groovecast.scripts.Wav
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
        station.graph().sources().any { it.kind() == 'sine' }
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
            s.on_metadata(fun (m) -> titles := m["title"] :: titles())
            output.file(%wav, "${out}", mksafe(s))
            thread.run(delay=1.5, fun () -> print("titles: #{titles()}"))
            """.stripIndent(), 2)
        Wav wav = Wav.read(out)

        then:
        Math.abs(wav.frequency(0.5, 1.5) - 660) < 2
    }
}
