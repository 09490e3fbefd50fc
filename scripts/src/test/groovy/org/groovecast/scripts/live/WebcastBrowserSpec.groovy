package org.groovecast.scripts.live

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.support.Browser
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * A browser DJ in a real browser: headless Chromium runs a page the station serves, which makes a
 * tone with an OscillatorNode, records it through MediaRecorder as WebM/Opus and streams it with
 * the webcast protocol (hello, binary chunks, a metadata message) to input.harbor's mount.
 */
@Tag("integration")
class WebcastBrowserSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    Browser browser

    def setup() {
        assert Browser.available(): "the browser test needs Debian's chromium (apt-get install -y chromium); .ci/run installs it"
    }

    def cleanup() {
        browser?.close()
        station?.stop()
    }

    def "Chromium's MediaRecorder (audio/webm;codecs=opus) streamed over the webcast WebSocket is heard at its frequency, its title reaches onMetadata"() {
        given: 'a station that serves the DJ page and takes the DJ on /live'
        Path site = Files.createDirectories(dir.resolve('site'))
        Files.writeString(site.resolve('dj.html'), getClass().getResource('/webcast/dj.html').text)
        station = Engine.load('webcast.groovy', """
            def seen = []
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 2.0)
            live.onConnect { c -> seen << "connect " + c.user }
            live.onMetadata { m -> if (m.artist) seen << "title " + m.title + " by " + m.artist }
            output.file(wav(), '${dir}/out.wav', fallback(trackSensitive: false, live, sine(440, amplitude: 0.3)))
            harbor.http.static('/dj', '${site}', port: ${port})
            harbor.http.register('/seen', port: ${port}) { req -> seen.join('|') }
        """.stripIndent(), [:])
        station.start(null)
        long t0 = System.nanoTime()
        browser = new Browser(800, 600, ['--autoplay-policy=no-user-gesture-required'])

        when: 'the page broadcasts 660 Hz for 6 s'
        browser.open("http://127.0.0.1:${port}/dj/dj.html")
        String state = browser.eval("broadcast('/live', 'source', 'secret', 660, 6, 'Oscillator Live')")
        double connectedAt = (System.nanoTime() - t0) / 1e9
        boolean done = browser.await(20) { browser.eval('window.dj.state') == 'done' }
        double endedAt = (System.nanoTime() - t0) / 1e9
        Map dj = browser.eval('window.dj') as Map
        String seen = new URL("http://127.0.0.1:${port}/seen").text
        Thread.sleep(1000)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the page recorded and sent its chunks, and ended normally'
        state == 'streaming running'
        done
        dj.error == null
        dj.chunks >= 10
        browser.errors.isEmpty()

        and: 'the station played the music, then the browser tone (once its 2 s are buffered)'
        Math.abs(w.frequency(0.2, 0.9) - 440) < 5
        Math.abs(w.frequency(connectedAt + 3.5, endedAt - 0.5) - 660) < 5

        and: 'the login and the metadata message reached the script'
        seen.startsWith('connect source')
        seen.contains('title Oscillator Live by Chromium')
    }
}
