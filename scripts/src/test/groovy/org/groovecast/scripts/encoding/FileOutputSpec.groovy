package org.groovecast.scripts.encoding

import java.nio.file.Files
import java.nio.file.Path
import java.time.LocalDateTime
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

@Tag("integration")
class FileOutputSpec extends Specification {
    @TempDir
    Path dir

    Station render(String script, double seconds) {
        Engine.render('files.groovy', script.replace('DIR', dir.toString()), seconds)
    }

    def "strftime fields in the path are expanded when the file opens"() {
        given:
        def before = LocalDateTime.now()

        when:
        render("output.file(wav(), 'DIR/%Y-%m-%d/at-%H.wav', sine())", 1)
        def after = LocalDateTime.now()
        def expected = [before, after].collect { t -> dir.resolve(String.format('%tY-%<tm-%<td/at-%<tH.wav', t)) }

        then:
        expected.any { Files.exists(it) }
        Wav.read(expected.find { Files.exists(it) }).seconds == 1.0d
    }

    def "reopenOnMetadata starts one file per track, named from its metadata, and onClose gets each path"() {
        given:
        Path a = Media.mp3('file-a.mp3', [440], 1, 'First')
        Path b = Media.mp3('file-b.mp3', [660], 1, 'Second')

        when:
        Station st = render("""
            def q = request.queue(queue: ['${a}', '${b}'])
            output.file(mp3(), 'DIR/%{title}.mp3', mksafe(q), reopenOnMetadata: true,
                    onClose: { path -> log.info("closed \${path.toString().tokenize('/').last()}") })
        """, 2) // onClose runs on the blocking pool, which finishes its queue before the station reports stopped

        then:
        Math.abs((Media.probe(dir.resolve('First.mp3'), 'format=duration') as double) - 1.0) < 0.1
        Math.abs((Media.probe(dir.resolve('Second.mp3'), 'format=duration') as double) - 1.0) < 0.1
        st.scriptLog().recent().containsAll(['info: closed First.mp3', 'info: closed Second.mp3'])
    }

    def "a fallible source gets a file per stretch of availability, each path asked again; an empty path records nothing"() {
        when: 'the source plays [0, 1 s), [2, 3 s) and [4, 5 s); the function gives no path for the first stretch'
        Station st = render("""
            def frames = 0
            def s = switchOn(trackSensitive: false, [[{ -> frames.intdiv(50) % 2 == 0 }, sine(440)]])
            s.onFrame { -> frames++ }
            output.file(wav(), { -> log.info("asked at \${frames}"); frames < 100 ? '' : "DIR/%Y-part-\${frames}.wav" }, s,
                    fallible: true, onClose: { path -> log.info("closed \${path.toString().tokenize('/').last()}") })
        """, 5.5)
        int year = LocalDateTime.now().year
        List<String> files = Files.list(dir).withCloseable { d -> d.map { it.fileName.toString() }.sorted().toList() }

        then: 'a file for each of the last two stretches, named when it opened, each holding its stretch'
        files == ["${year}-part-100.wav", "${year}-part-200.wav"]*.toString()
        files.every { Wav.read(dir.resolve(it)).seconds == 1.0d }

        and: 'the function asked once per stretch, and each file closed once (onClose runs on the blocking pool, in any order)'
        st.scriptLog().recent().findAll { it.startsWith('info: asked') } == ['info: asked at 0', 'info: asked at 100', 'info: asked at 200']
        st.scriptLog().recent().findAll { it.startsWith('info: closed') }.sort() == [
                "info: closed ${year}-part-100.wav".toString(), "info: closed ${year}-part-200.wav".toString()]
    }
}
