package org.groovecast.scripts

import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import spock.lang.Specification
import spock.lang.TempDir

/** input.harbor with ffmpeg as the Icecast source client. */
class LiveInputSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station

    def cleanup() {
        station?.stop()
    }

    static Process sourceClient(int port, String password, double seconds, int freq) {
        new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i',
                "sine=frequency=${freq}:sample_rate=44100:duration=${seconds}".toString(), '-ac', '2',
                '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', '-content_type', 'audio/mpeg',
                "icecast://source:${password}@127.0.0.1:${port}/live".toString())
                .redirectErrorStream(true).start()
    }

    def "the fallback switches to the live DJ within a second of connection, and back when the DJ leaves"() {
        given:
        station = Engine.load('live.groovy', """
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5)
            def music = sine(440, amplitude: 0.3)
            def s = fallback(trackSensitive: false, live, music)
            output.file(wav(), '${dir}/out.wav', s)
        """.stripIndent(), [:])
        station.start(null)

        when: 'the DJ connects at about 1 s and streams 880 Hz for 4 s'
        Thread.sleep(1000)
        long connectedAt = System.nanoTime()
        Process dj = sourceClient(port, 'secret', 4, 880)
        assert dj.waitFor(20, TimeUnit.SECONDS)
        String djOutput = dj.inputStream.text
        double djSeconds = (System.nanoTime() - connectedAt) / 1e9
        Thread.sleep(2500)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then:
        dj.exitValue() == 0 || djOutput.isEmpty()
        Math.abs(w.frequency(0.2, 0.9) - 440) < 5
        'live within 1 s of the connection (plus the 0.5 s buffer)'
        Math.abs(w.frequency(1.0 + 1.5, 1.0 + 3.5) - 880) < 5
        'music again after the DJ left'
        Math.abs(w.frequency(1.0 + djSeconds + 1.0, w.seconds - 0.2) - 440) < 5
    }

    def "a fallback's onSelect runs once when it switches to the live DJ and once when it switches back"() {
        given:
        station = Engine.load('live.groovy', """
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5)
            def s = fallback(trackSensitive: false, live, sine(440),
                    onSelect: { src -> log.info("select \${src}") }, onLeave: { src -> log.info("leave \${src}") })
            output.dummy(s)
        """.stripIndent(), [:])
        station.start(null)

        when: 'a DJ streams for 3 s'
        Thread.sleep(500)
        Process dj = sourceClient(port, 'secret', 3, 880)
        assert dj.waitFor(20, TimeUnit.SECONDS)
        String live = station.graph().sources().find { it.kind() == 'input.harbor' }.id()
        String music = station.graph().sources().find { it.kind() == 'sine' }.id()
        boolean back = Net.await(5) { station.scriptLog().recent().size() >= 5 }
        Thread.sleep(500)

        then:
        back
        station.scriptLog().recent() == ["select ${music}", "leave ${music}", "select ${live}", "leave ${live}", "select ${music}"]
                .collect { 'info: ' + it }
    }

    def "admin metadata updates and source-client callbacks reach the script"() {
        given:
        station = Engine.load('live.groovy', """
            def seen = []
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.2)
            live.onConnect { headers -> seen << "connect " + headers['content-type'] }
            live.onDisconnect { -> seen << 'disconnect' }
            live.onMetadata { m -> seen << "title " + m.title + " by " + m.artist }
            output.dummy(mksafe(live))
            harbor.http.register('/seen', port: ${port}) { req -> seen.join('|') }
        """.stripIndent(), [:])
        station.start(null)
        String good = Base64.encoder.encodeToString('source:secret'.bytes)
        String bad = Base64.encoder.encodeToString('source:nope'.bytes)

        when: 'a DJ streams and its software sends the title'
        Process dj = sourceClient(port, 'secret', 3, 880)
        Net.await(5) { new URL("http://127.0.0.1:${port}/seen").text.contains('connect') }
        String refused = Net.raw(port, "GET /admin/metadata?mode=updinfo&mount=/live&song=X HTTP/1.0\r\n" +
                "Authorization: Basic ${bad}\r\n\r\n")
        String ok = Net.raw(port, "GET /admin/metadata?mode=updinfo&mount=%2Flive&song=The+Band+-+The+Song HTTP/1.0\r\n" +
                "Authorization: Basic ${good}\r\n\r\n")
        boolean titled = Net.await(5) { new URL("http://127.0.0.1:${port}/seen").text.contains('title The Song by The Band') }
        dj.waitFor(20, TimeUnit.SECONDS)

        then:
        Net.status(refused) == 401
        Net.status(ok) == 200
        titled
        Net.await(5) { new URL("http://127.0.0.1:${port}/seen").text.endsWith('disconnect') }
        new URL("http://127.0.0.1:${port}/seen").text.startsWith('connect audio/mpeg')
    }

    def "a wrong password gets 401, a second client on a busy mount 403, and the engine keeps serving"() {
        given:
        station = Engine.load('live.groovy', """
            def live = input.harbor('live', port: ${port}, password: 'secret')
            output.dummy(mksafe(live))
        """.stripIndent(), [:])
        station.start(null)
        String auth = Base64.encoder.encodeToString('source:wrong'.bytes)
        String good = Base64.encoder.encodeToString('source:secret'.bytes)

        expect:
        Net.status(Net.raw(port, "SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${auth}\r\n\r\n")) == 401
        Net.status(Net.raw(port, "SOURCE /live HTTP/1.0\r\n\r\n")) == 401
        Net.status(Net.raw(port, "SOURCE /elsewhere HTTP/1.0\r\nAuthorization: Basic ${good}\r\n\r\n")) == 404

        when: 'one client streams and a second one tries the same mount'
        Process dj = sourceClient(port, 'secret', 5, 880)
        Thread.sleep(1500)
        String second = Net.raw(port, "SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${good}\r\n\r\n")

        then:
        Net.status(second) == 403
        second.contains('in use')

        when: 'a client sends garbage instead of audio'
        dj.waitFor(20, TimeUnit.SECONDS)
        Thread.sleep(500)
        String garbage = Net.raw(port, "SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${good}\r\n" +
                "Content-Type: audio/mpeg\r\n\r\n" + ('x' * 100_000), 8000)

        then: 'its connection ends; the mount is free again for a real client'
        garbage.startsWith('HTTP/1.0 200 OK')
        Net.await(5) { !station.graph().sources().find { it.kind() == 'input.harbor' }.isConnected() }
        Net.status(Net.raw(port, "SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${auth}\r\n\r\n")) == 401
    }

    def "a client that stops sending is timed out; auth can be replaced by a function"() {
        given:
        station = Engine.load('live.groovy', """
            def live = input.harbor('live', port: ${port}, timeout: 1)
            live.auth { u, p -> u == 'dj' && p == 'pw' }
            output.dummy(mksafe(live))
        """.stripIndent(), [:])
        station.start(null)
        def live = station.graph().sources().find { it.kind() == 'input.harbor' }

        expect: 'the default source:hackme no longer works'
        Net.status(Net.raw(port, "SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${'source:hackme'.bytes.encodeBase64()}\r\n\r\n")) == 401

        when: 'dj:pw connects and sends nothing'
        def s = new Socket('127.0.0.1', port)
        s.soTimeout = 5000
        s.outputStream.write("SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${'dj:pw'.bytes.encodeBase64()}\r\n\r\n".bytes)
        String answer = new String(s.inputStream.readNBytes(17))
        boolean connected = Net.await(1) { live.isConnected() }
        long t0 = System.nanoTime()
        int end = s.inputStream.read()
        double closedAfter = (System.nanoTime() - t0) / 1e9

        then: 'accepted, then dropped after the 1 s timeout'
        answer == 'HTTP/1.0 200 OK\r\n'
        connected
        end == -1 || end == 13
        closedAfter < 4
        Net.await(2) { !live.isConnected() }

        cleanup:
        s?.close()
    }
}
