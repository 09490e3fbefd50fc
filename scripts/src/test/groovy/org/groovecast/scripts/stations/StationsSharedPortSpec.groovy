package org.groovecast.scripts.stations

import com.fasterxml.jackson.databind.ObjectMapper
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import org.groovecast.host.Stations
import org.groovecast.host.script.ScriptError
import org.groovecast.host.script.ScriptErrors
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Stations of one process naming one harbor port, as {@code groovecast run a.groovy b.groovy} runs
 * them: one socket, each station serving its own mounts on it; a mount two stations claim is the
 * second's located error while the first plays on; a reload of one leaves the other's listeners be.
 */
@Tag("integration")
class StationsSharedPortSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    List<String> reported = new CopyOnWriteArrayList<>()
    Stations stations
    List<StreamReader> readers = []

    static String station(String mount, int port, int freq) {
        """
        def tone = sine(${freq}, amplitude: 0.3)
        output.harbor(mp3(bitrate: 128), tone, mount: '${mount}', port: ${port}, burst: 0, id: '${mount}')
        status.page(port: ${port})
        metrics.expose(port: ${port})
        """.stripIndent()
    }

    Stations start(List<Path> scripts) {
        stations = new Stations(scripts, { Engine.plugins().functions() }, [:],
                { Path script, RuntimeException e ->
                    switch (e) {
                        case ScriptErrors -> ((ScriptErrors) e).errors().each { reported << it.message }
                        case ScriptError -> reported << e.message
                        default -> reported << "${script.fileName}: ${e.message}".toString()
                    }
                } as Stations.Failures)
        stations.start()
        stations
    }

    /** A listener of a mount that reads all the time and remembers its longest wait between bytes. */
    static final class StreamReader implements Runnable {
        final Socket socket
        volatile long bytes
        volatile long worstGapNanos
        volatile boolean ended
        private volatile boolean stop
        private final Thread thread

        StreamReader(int port, String mount) {
            socket = new Socket('127.0.0.1', port)
            socket.soTimeout = 200
            socket.outputStream.write("GET /${mount} HTTP/1.0\r\n\r\n".bytes)
            thread = new Thread(this, "listener-${mount}")
            thread.daemon = true
            thread.start()
        }

        void run() {
            byte[] buf = new byte[16384]
            long last = 0
            while (!stop) {
                int n
                try {
                    n = socket.inputStream.read(buf)
                } catch (SocketTimeoutException ignored) {
                    continue
                } catch (IOException ignored) {
                    n = -1
                }
                if (n < 0) { ended = true; return }
                long now = System.nanoTime()
                // counted from the first bytes: the wait for the station's first frame is no gap
                if (last != 0) worstGapNanos = Math.max(worstGapNanos, now - last)
                last = now
                bytes += n
            }
        }

        /** Bytes keep coming: {@code more} within {@code seconds}. */
        boolean receives(int more = 16000, int seconds = 5) {
            long before = bytes
            Net.await(seconds) { bytes > before + more }
        }

        void close() {
            stop = true
            socket.close()
            thread.join(2000)
        }
    }

    StreamReader listen(String mount) {
        def r = new StreamReader(port, mount)
        readers << r
        r
    }

    /** The status page's first event (everything it shows), as the page's script reads it. */
    Map statusEvent() {
        Process curl = new ProcessBuilder('curl', '-s', '-N', '--max-time', '3',
                "http://127.0.0.1:${port}/api/events".toString()).start()
        String out = curl.inputStream.text
        curl.waitFor()
        new ObjectMapper().readValue(out.readLines().find { it.startsWith('data:') }.substring(5), Map)
    }

    def cleanup() {
        readers*.close()
        stations?.close()
    }

    def 'two stations on one port: each listener hears its own station; the page at / is the first station\'s and lists both'() {
        given:
        Path a = Files.writeString(dir.resolve('a.groovy'), station('a', port, 440))
        Path b = Files.writeString(dir.resolve('b.groovy'), station('b', port, 880))

        when:
        start([a, b])

        then: 'both on air on the one port, no failure'
        Net.await(30) { stations.onAir('a.groovy') && stations.onAir('b.groovy') }
        reported.isEmpty()

        and: 'two real listeners (ffmpeg), each hearing its own station'
        Math.abs(Media.heard(dir.resolve('a.wav'), "http://127.0.0.1:${port}/a".toString()) - 440) < 5
        Math.abs(Media.heard(dir.resolve('b.wav'), "http://127.0.0.1:${port}/b".toString()) - 880) < 5

        and: 'the status page both declare is the first station\'s, and it lists both'
        Map event = statusEvent()
        event.station == 'a.groovy'
        event.stations*.name == ['a.groovy', 'b.groovy']
        event.stations*.onAir == [true, true]

        and: 'the port\'s /metrics, which both declare, has both stations\' series, each labelled with its station, each family once'
        List<String> lines = new URL("http://127.0.0.1:${port}/metrics").text.readLines()
        List<String> series = lines.findAll { it && !it.startsWith('#') }
        series.every { it.contains('station="a.groovy"') || it.contains('station="b.groovy"') }
        series.any { it.startsWith('groovecast_clock_duty') && it.contains('station="a.groovy"') }
        series.any { it.startsWith('groovecast_clock_duty') && it.contains('station="b.groovy"') }
        lines.findAll { it.startsWith('# TYPE ') }.countBy { it }.every { k, n -> n == 1 }
    }

    def 'a mount another station serves on the port is the second station\'s located error; the first plays on, the second is retried alone'() {
        given: 'a on air with a listener; clash broken at first, so that a claims its mount first'
        Path a = Files.writeString(dir.resolve('a.groovy'), station('radio', port, 440))
        Path clash = Files.writeString(dir.resolve('clash.groovy'), 'nothing_here()\n')
        start([a, clash])
        Net.await(30) { stations.onAir('a.groovy') }
        Net.await(10) { stations.failures('clash.groovy') >= 1 }
        StreamReader listener = listen('radio')
        assert listener.receives()

        when: 'clash now declares the same mount on the same port, at its line 3'
        Files.writeString(clash, """\
            def tone = sine(880, amplitude: 0.3)
            // the same mount as a.groovy's
            output.harbor(mp3(bitrate: 128), tone, mount: 'radio', port: ${port})
            """.stripIndent())
        stations.reload('clash.groovy')

        then: 'reported at its file and line, naming the station whose mount it is'
        // (a retry of the broken script may have been reported meanwhile: the line-3 one is ours)
        Net.await(10) { reported.any { it.startsWith('clash.groovy:3:') } }
        reported.find { it.startsWith('clash.groovy:3:') }
                .contains("port ${port} already has a mount at /radio, station a.groovy's")
        !stations.onAir('clash.groovy')

        and: 'a never noticed: its listener still hears a'
        listener.receives()
        !listener.ended
        stations.onAir('a.groovy')
        Math.abs(Media.heard(dir.resolve('radio.wav'), "http://127.0.0.1:${port}/radio".toString()) - 440) < 5

        when: 'clash takes a mount of its own on the port'
        Files.writeString(clash, station('other', port, 880))
        stations.reload('clash.groovy')

        then: 'it is on air beside a, on the same port'
        Net.await(15) { stations.onAir('clash.groovy') }
        Math.abs(Media.heard(dir.resolve('other.wav'), "http://127.0.0.1:${port}/other".toString()) - 880) < 5
        listener.receives()
    }

    def 'reloads of one station keep the other station\'s listener on the shared port, with no gap'() {
        given:
        Path a = Files.writeString(dir.resolve('a.groovy'), station('a', port, 440))
        Path b = Files.writeString(dir.resolve('b.groovy'), station('b', port, 880))
        start([a, b])
        Net.await(30) { stations.onAir('a.groovy') && stations.onAir('b.groovy') }
        StreamReader onB = listen('b')
        StreamReader onA = listen('a')
        assert onB.receives() && onA.receives()

        when: 'a reloads three times, with a new tone each time'
        List<Boolean> reloaded = [550, 660, 770].collect { int f ->
            Files.writeString(a, station('a', port, f))
            boolean ok = stations.reload('a.groovy')
            Thread.sleep(500)
            ok
        }

        then: "b's listener never stopped hearing b"
        println "shared port: b's listener's longest wait for bytes across a's 3 reloads: ${onB.worstGapNanos / 1_000_000} ms"
        reloaded == [true, true, true]
        onB.receives()
        !onB.ended
        onB.worstGapNanos < 1_000_000_000L
        Math.abs(Media.heard(dir.resolve('b.wav'), "http://127.0.0.1:${port}/b".toString()) - 880) < 5

        and: "a's own listener was carried across its reloads, and hears its new tone"
        onA.receives()
        !onA.ended
        Math.abs(Media.heard(dir.resolve('a.wav'), "http://127.0.0.1:${port}/a".toString()) - 770) < 5
    }
}
