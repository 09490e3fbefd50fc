package org.groovecast.scripts.live

import ch.qos.logback.classic.Level
import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Telnet
import org.groovecast.scripts.support.Wav
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** input.harbor with ffmpeg as the Icecast source client. */
@Tag("integration")
class LiveInputSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station

    def cleanup() {
        station?.stop()
    }

    static Process sourceClient(int port, String password, double seconds, int freq, String user = 'source') {
        new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i',
                "sine=frequency=${freq}:sample_rate=44100:duration=${seconds}".toString(), '-ac', '2',
                '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', '-content_type', 'audio/mpeg',
                "icecast://${user}:${password}@127.0.0.1:${port}/live".toString())
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
            live.onConnect { client -> seen << "connect " + client.headers['content-type'] }
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

    def "an auth function answering a map names the DJ: admitted, its names reach onConnect and the metadata; [allow: false] or false refuse with 401"() {
        given: "AzuraCast's shape: the password checked elsewhere, the DJ's name and display name answered"
        station = Engine.load('live.groovy', """
            def seen = []
            def live = input.harbor('live', port: ${port}, buffer: 0.2, auth: { user, password ->
                if (password == 'dj1pw') return [allow: true, username: 'dj1', displayName: 'DJ One']
                if (user == 'dj2' && password == 'pw2') return [allow: true, username: 'dj2', display_name: 'DJ Two']
                if (password == 'off') return [allow: false, username: 'dj1']
                if (password == 'noallow') return [username: 'dj1']
                false
            })
            live.onConnect { c -> seen << "connect \${c.user} \${c.username} \${c.displayName} \${c.address} \${c.headers['content-type']}" }
            live.onMetadata { m -> seen << "meta \${m.dj_username} \${m.dj_display_name} \${m.title}" }
            output.dummy(mksafe(live))
            harbor.http.register('/seen', port: ${port}) { req -> seen.join('|') }
        """.stripIndent(), [:])
        station.start(null)
        def source = { String password -> "SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${"source:${password}".bytes.encodeBase64()}\r\n\r\n" }
        def seen = { new URL("http://127.0.0.1:${port}/seen").text }

        expect: '[allow: false], a map without allow, and false are refused'
        Net.status(Net.raw(port, source('off'))) == 401
        Net.status(Net.raw(port, source('noallow'))) == 401
        Net.status(Net.raw(port, source('guess'))) == 401
        seen() == ''

        when: 'DJ One streams, and its software sends a title'
        Process dj = sourceClient(port, 'dj1pw', 3, 880)
        boolean named = Net.await(5) { seen().contains('meta dj1 DJ One DJ One') }
        String ok = Net.raw(port, "GET /admin/metadata?mode=updinfo&mount=/live&song=Band+-+Song HTTP/1.0\r\n" +
                "Authorization: Basic ${'source:dj1pw'.bytes.encodeBase64()}\r\n\r\n")
        boolean titled = Net.await(5) { seen().contains('meta dj1 DJ One Song') }
        dj.waitFor(20, TimeUnit.SECONDS)

        then: 'onConnect saw who logged in and under which names; the first metadata is titled with the display name'
        seen().startsWith('connect source dj1 DJ One 127.0.0.1 audio/mpeg')
        named

        and: 'a title from the DJ keeps the names beside it'
        Net.status(ok) == 200
        titled

        when: "a client that sends only a password, with the DJ's user:password in it (user source), and AzuraCast's API spelling, display_name"
        Net.await(5) { !station.graph().sources().find { it.kind() == 'input.harbor' }.isConnected() }
        Process dj2 = sourceClient(port, 'dj2:pw2', 2, 660)
        boolean second = Net.await(5) { seen().contains('meta dj2 DJ Two DJ Two') }
        dj2.waitFor(20, TimeUnit.SECONDS)

        then:
        second
        seen().contains('connect dj2 dj2 DJ Two 127.0.0.1')
    }

    def "<id>.stop over telnet kicks the live DJ; <id>.status says who streams, before and after"() {
        given:
        int telnetPort = Net.freePort()
        station = Engine.load('live.groovy', """
            def live = input.harbor('live', id: 'dj', port: ${port}, password: 'secret', buffer: 0.2)
            output.dummy(mksafe(live))
            server.telnet(port: ${telnetPort})
        """.stripIndent(), [:])
        station.start(null)
        def live = station.graph().sources().find { it.kind() == 'input.harbor' }
        def t = new Telnet(telnetPort)

        expect: 'nobody streams yet'
        t.cmd('dj.status') == 'no source client connected'
        t.cmd('dj.stop') == 'No source client connected'
        t.cmd('help').readLines().any { it.startsWith('dj.stop ') } && t.cmd('help').readLines().any { it.startsWith('dj.status ') }

        when: 'a DJ streams for 30 s, and is stopped from control'
        Process dj = sourceClient(port, 'secret', 30, 880)
        assert Net.await(5) { live.isConnected() }
        String status = t.cmd('dj.status')
        long t0 = System.nanoTime()
        String stopped = t.cmd('dj.stop')
        boolean exited = dj.waitFor(10, TimeUnit.SECONDS)
        double goneAfter = (System.nanoTime() - t0) / 1e9

        then: 'it was connected from its address; the DJ is cut off at once and its ffmpeg ends'
        status ==~ /source client connected from 127\.0\.0\.1:\d+/
        stopped == 'Done'
        exited
        goneAfter < 5
        Net.await(5) { t.cmd('dj.status') == 'no source client connected' }
        !live.isConnected()

        cleanup:
        dj?.destroyForcibly()
        t?.close()
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
        def logged = new LogList()
        logged.start()
        def liveLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.harbor.LiveInput')
        liveLog.addAppender(logged)

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

        and: 'one accurate warning says why, not a decoding error besides'
        logged.list.findAll { it.level == Level.WARN }*.formattedMessage == [
                "input.harbor /live: 127.0.0.1:${s.localPort} sent nothing for 1.0 s (timeout); disconnecting it".toString()]

        cleanup:
        s?.close()
        liveLog?.detachAppender(logged)
    }


    def "ezstream (libshout) streams to the harbor with its titles, its OPTIONS probe and login challenge logging nothing"() {
        given:
        Path mp3 = Media.mp3('ezstream-tone.mp3', [880], 6, 'Ez Title')
        def logged = new LogList()
        logged.start()
        def harborLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.harbor')
        harborLog.level = Level.INFO
        harborLog.addAppender(logged)
        station = Engine.load('live.groovy', """
            def songs = []
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5)
            live.onMetadata { m -> if (m.song) songs << m.song }
            output.file(wav(), '${dir}/out.wav', fallback(trackSensitive: false, live, sine(440, amplitude: 0.3)))
            harbor.http.register('/songs', port: ${port}) { req -> songs.join('|') }
        """.stripIndent(), [:])
        station.start(null)
        Path config = dir.resolve('ezstream.xml')
        Files.writeString(config, """\
            <ezstream>
              <servers><server><hostname>127.0.0.1</hostname><port>${port}</port><password>secret</password></server></servers>
              <streams><stream><mountpoint>/live</mountpoint><format>MP3</format></stream></streams>
              <intakes><intake><filename>${dir.resolve('playlist.m3u')}</filename><stream_once>Yes</stream_once></intake></intakes>
              <metadata><format_str>@a@ - @t@</format_str></metadata>
            </ezstream>""".stripIndent())
        Files.writeString(dir.resolve('playlist.m3u'), mp3.toString() + '\n')
        ['chmod', '600', config.toString()].execute().waitFor() // ezstream refuses a config others may read

        when: 'ezstream connects at about 1 s and streams the 6 s file in real time'
        Thread.sleep(1000)
        Process ez = new ProcessBuilder('ezstream', '-c', config.toString()).redirectErrorStream(true).start()
        assert ez.waitFor(30, TimeUnit.SECONDS)
        String ezOutput = ez.inputStream.text
        String songs = new URL("http://127.0.0.1:${port}/songs").text
        Thread.sleep(500)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'it streamed, its title came through /admin/metadata, and the DJ was heard'
        ez.exitValue() == 0
        songs.contains('Groovecast Tests - Ez Title')
        Math.abs(w.frequency(3.0, 5.5) - 880) < 5

        and: 'no 400, no refused login, no warning: only its connecting and leaving'
        // A status, not a digit run: the harbor's own port (0.0.0.0:44005) once passed for a 400.
        logged.list.findAll { it.formattedMessage =~ /\b400\b/ || it.formattedMessage.contains('refused')
                || it.level.isGreaterOrEqual(Level.WARN) }*.formattedMessage == []
        logged.list.any { it.formattedMessage.contains('source client') && it.formattedMessage.contains('connected') }

        cleanup:
        harborLog.detachAppender(logged)
        harborLog.level = null
        println ezOutput
    }

    def "a slow auth function holds up neither the port nor its loop; the DJ is admitted when it answers, or refused at the timeout"() {
        given: 'one event loop, so that a blocked loop would block every request'
        station = Engine.load('live.groovy', """
            def live = input.harbor('live', port: ${port}, buffer: 0.2, timeout: 5)
            live.auth { u, p -> Thread.sleep(3000); u == 'dj' && p == 'pw' }
            def stuck = input.harbor('stuck', port: ${port}, timeout: 1)
            stuck.auth { u, p -> Thread.sleep(5000); true }
            output.dummy(mksafe(live))
            output.dummy(mksafe(stuck))
            harbor.http.register('/ping', port: ${port}) { req -> 'pong' }
        """.stripIndent(), ['harbor.eventLoops': '1'])
        station.start(null)
        def live = station.graph().sources().find { it.kind() == 'input.harbor' && it.endpoint().endsWith('/live') }

        when: 'a DJ logs in, and requests are made while its auth function sleeps'
        def dj = new Socket('127.0.0.1', port)
        dj.soTimeout = 10_000
        long t0 = System.nanoTime()
        dj.outputStream.write("SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${'dj:pw'.bytes.encodeBase64()}\r\n\r\n".bytes)
        Thread.sleep(200)
        def latencies = Net.pingLatencies(port)
        String answer = new String(dj.inputStream.readNBytes(17))
        double admittedAfter = (System.nanoTime() - t0) / 1e9
        println "slow auth: GET latency ${latencies.min().round(1)}..${latencies.max().round(1)} ms while it ran; DJ admitted after ${admittedAfter.round(2)} s"

        then: 'every request was answered at once, and the DJ admitted after the 3 s check'
        latencies.every { it < 200 }
        answer == 'HTTP/1.0 200 OK\r\n'
        admittedAfter > 2.9
        Net.await(2) { live.isConnected() }

        when: 'an auth function that never answers within the input timeout (1 s)'
        long t1 = System.nanoTime()
        String refused = Net.raw(port, "SOURCE /stuck HTTP/1.0\r\nAuthorization: Basic ${'a:b'.bytes.encodeBase64()}\r\n\r\n", 5000)
        double refusedAfter = (System.nanoTime() - t1) / 1e9

        then:
        Net.status(refused) == 503
        refusedAfter < 2.5

        cleanup:
        dj?.close()
    }

    def "failed source logins are counted per address: past the limit 429, another address unaffected; a challenge without credentials is no failure"() {
        given:
        station = Engine.load('live.groovy', """
            def live = input.harbor('live', port: ${port}, password: 'secret')
            output.dummy(mksafe(live))
        """.stripIndent(), ['harbor.maxAuthFailures': '3', 'harbor.authFailureWindow': '4'])
        station.start(null)
        def live = station.graph().sources().find { it.kind() == 'input.harbor' }
        String good = "Authorization: Basic ${'source:secret'.bytes.encodeBase64()}\r\n"
        String bad = "Authorization: Basic ${'source:guess'.bytes.encodeBase64()}\r\n"

        expect: "libshout's challenges (no credentials) are answered 401 and not counted"
        (1..5).every { Net.status(Net.raw(port, "SOURCE /live HTTP/1.0\r\n\r\n")) == 401 }

        and: 'three wrong passwords, then even the right one is refused from that address, and /admin/metadata too'
        (1..3).every { Net.status(Net.raw(port, "SOURCE /live HTTP/1.0\r\n${bad}\r\n")) == 401 }
        String blocked = Net.raw(port, "SOURCE /live HTTP/1.0\r\n${good}\r\n")
        Net.status(blocked) == 429
        blocked.contains('Retry-After: ')
        Net.status(Net.raw(port, "GET /admin/metadata?mode=updinfo&mount=/live&song=x HTTP/1.0\r\n${good}\r\n")) == 429

        and: 'another address logs in'
        Net.rawFrom('127.0.0.2', port, "SOURCE /live HTTP/1.0\r\n${good}\r\n", 500).startsWith('HTTP/1.0 200 OK')
        Net.await(3) { !live.isConnected() }

        and: 'once the window has passed, the first address may log in again'
        Thread.sleep(4000)
        Net.raw(port, "SOURCE /live HTTP/1.0\r\n${good}\r\n", 500).startsWith('HTTP/1.0 200 OK')
    }
}
