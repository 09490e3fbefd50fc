package org.groovecast.scripts

import java.nio.file.Files
import java.nio.file.Path
import java.time.LocalDateTime
import org.groovecast.host.Station
import spock.lang.Specification
import spock.lang.TempDir

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
}
