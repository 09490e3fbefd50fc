package org.groovecast.scripts.stations

import com.fasterxml.jackson.databind.ObjectMapper
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import org.groovecast.host.Stations
import org.groovecast.host.script.ScriptError
import org.groovecast.host.script.ScriptErrors
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Three stations in one process, as {@code groovecast run a.groovy b.groovy broken.groovy} runs them:
 * the two good ones serve MP3 on their own mounts, the broken one is reported at its line and the
 * others never notice, a SIGHUP's reload of all reloads each with its listener kept, and each
 * station's /metrics and status page name it.
 */
@Tag("integration")
class StationsSpec extends Specification {
    @TempDir
    Path dir

    List<String> reported = new CopyOnWriteArrayList<>()
    Stations stations
    Process listener

    static String station(String mount, int port, int freq) {
        """
        def tone = sine(${freq}, amplitude: 0.2)
        output.harbor(mp3(bitrate: 128), tone, mount: '${mount}', port: ${port}, id: '${mount}')
        status.page(port: ${port})
        metrics.expose(port: ${port})
        """.stripIndent()
    }

    /** The first bytes of a mount: MP3 (a frame sync, or an ID3 tag) once the station is on air. */
    static boolean playsMp3(int port, String mount) {
        try {
            def c = (HttpURLConnection) new URL("http://127.0.0.1:${port}/${mount}").openConnection()
            c.connectTimeout = 2000
            c.readTimeout = 3000
            byte[] head = c.inputStream.withCloseable { it.readNBytes(4096) }
            c.disconnect()
            head.length == 4096 && (new String(head, 0, 3, 'ISO-8859-1') == 'ID3' ||
                    (0..<head.length - 1).any { (head[it] & 0xff) == 0xff && (head[it + 1] & 0xe0) == 0xe0 })
        } catch (IOException e) {
            false
        }
    }

    /** The status page's first event (everything it shows), as the page's script reads it. */
    static Map statusEvent(int port) {
        Process curl = new ProcessBuilder('curl', '-s', '-N', '--max-time', '3',
                "http://127.0.0.1:${port}/api/events".toString()).start()
        String out = curl.inputStream.text
        curl.waitFor()
        new ObjectMapper().readValue(out.readLines().find { it.startsWith('data:') }.substring(5), Map)
    }

    def cleanup() {
        listener?.destroy()
        stations?.close()
    }

    def 'each station plays on its own, a broken one is reported alone, a reload of all reloads each'() {
        given:
        int portA = Net.freePort()
        int portB = Net.freePort()
        Path a = Files.writeString(dir.resolve('a.groovy'), station('a', portA, 440))
        Path b = Files.writeString(dir.resolve('b.groovy'), station('b', portB, 660))
        Path broken = Files.writeString(dir.resolve('broken.groovy'),
                "output.harbor(mp3(), nothing_here(), mount: 'c', port: ${Net.freePort()})\n")
        stations = new Stations([a, b, broken], { Engine.plugins().functions() }, [:],
                { Path script, RuntimeException e ->
                    switch (e) {
                        case ScriptErrors -> ((ScriptErrors) e).errors().each { reported << it.message }
                        case ScriptError -> reported << e.message
                        default -> reported << "${script.fileName}: ${e.message}".toString()
                    }
                } as Stations.Failures)

        when:
        stations.start()

        then: 'both good stations are on air, each on its own mount'
        Net.await(30) { stations.onAir('a.groovy') && stations.onAir('b.groovy') }
        Net.await(10) { playsMp3(portA, 'a') && playsMp3(portB, 'b') }

        and: 'the broken one is reported at its line, and not on air'
        Net.await(10) { !reported.isEmpty() }
        reported[0].startsWith('broken.groovy:1:')
        !stations.onAir('broken.groovy')

        and: "each station's metrics carry its name on every series"
        String metrics = new URL("http://127.0.0.1:${portA}/metrics").text
        List<String> series = metrics.readLines().findAll { it && !it.startsWith('#') }
        !series.isEmpty()
        series.every { it.contains('station="a.groovy"') }
        new URL("http://127.0.0.1:${portB}/metrics").text.readLines()
                .any { it ==~ /groovecast_clock_duty_ratio\{.*station="b.groovy".*\} .*/ }

        and: 'the status page lists the stations of the process'
        List<Map> listed = statusEvent(portB).stations
        listed*.name == ['a.groovy', 'b.groovy', 'broken.groovy']
        listed*.onAir == [true, true, false]

        when: 'a listener is on a, and a SIGHUP reloads every station'
        listener = new ProcessBuilder('curl', '-s', '-N', "http://127.0.0.1:${portA}/a".toString())
                .redirectOutput(dir.resolve('heard.mp3').toFile()).start()
        Net.await(5) { Files.size(dir.resolve('heard.mp3')) > 8192 }
        stations.reloadAll()

        then: 'each good station reloaded, the listener kept, and the broken one tried again'
        stations.reloader('a.groovy').lastReload() != null
        stations.reloader('b.groovy').lastReload() != null
        Net.await(10) { reported.size() >= 2 }
        listener.alive
        long heard = Files.size(dir.resolve('heard.mp3'))
        Net.await(5) { Files.size(dir.resolve('heard.mp3')) > heard + 16000 }
        listener.alive
        stations.onAir('a.groovy') && stations.onAir('b.groovy')

        when: 'the process stops'
        stations.requestStop()

        then:
        stations.awaitStopped(java.time.Duration.ofSeconds(20))
        !stations.onAir('a.groovy')
    }
}
