package org.groovecast.scripts.live

import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.host.StationReloader
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * input.harbor(..., icy: true): Shoutcast v1 source clients on port + 1, with a raw client that
 * follows the protocol byte by byte and with GStreamer's shout2send (libshout's ICY mode).
 */
// alone (scripts/pom.xml): its DJs stream from the test's own threads and the ear checks which tone
// played when; beside three other spec JVMs at load 7-12 (clean-clone CI) the DJ's stream stalled
// and the 880 Hz window read 759.6 Hz
@Tag("integration")
@Tag("alone")
class ShoutcastInputSpec extends Specification {
    @TempDir
    Path dir

    int port = freePair()
    Station station
    StationReloader reloader
    List<Process> processes = []

    def cleanup() {
        processes.each { it.destroyForcibly(); it.waitFor(5, TimeUnit.SECONDS) }
        station?.stop()
        reloader?.stop()
    }

    /** A free port whose next one is free too: the harbor takes both. */
    static int freePair() {
        for (int i = 0; i < 50; i++) {
            int p = Net.freePort()
            try {
                new ServerSocket(p + 1).close()
                return p
            } catch (IOException ignored) {
                // taken: try another
            }
        }
        throw new IllegalStateException('no free pair of ports')
    }

    static boolean bindable(int port) {
        try {
            new ServerSocket(port).close()
            true
        } catch (IOException ignored) {
            false
        }
    }

    Station live(String extra = '') {
        station = Engine.load('icy.groovy', """
            def seen = []
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5, icy: true${extra})
            live.onConnect { c -> seen << "connect " + c.headers['icy-name'] + " " + c.headers['content-type'] }
            live.onMetadata { m -> seen << "title " + m.title + " by " + m.artist }
            output.file(wav(), '${dir}/out.wav', fallback(trackSensitive: false, live, sine(440, amplitude: 0.3)))
            harbor.http.register('/seen', port: ${port}) { req -> seen.join('|') }
        """.stripIndent(), [:])
        station.start(null)
        station
    }

    String seen() {
        new URL("http://127.0.0.1:${port}/seen").text
    }

    /** ffmpeg writing {@code seconds} of a tone as MP3 at the pace of real time, to be copied to a socket. */
    Process tone(int freq, double seconds) {
        def p = new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i',
                "sine=frequency=${freq}:sample_rate=44100:duration=${seconds}".toString(), '-ac', '2',
                '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', 'pipe:1').redirectError(ProcessBuilder.Redirect.DISCARD).start()
        processes << p
        p
    }

    static String readExactly(InputStream in, int n) {
        byte[] b = in.readNBytes(n)
        new String(b, StandardCharsets.ISO_8859_1)
    }

    def "a raw Shoutcast v1 client: a wrong password is answered 'invalid password' and closed; the right one gets OK2, its icy headers and stream reach the station, and admin.cgi sets the title on either port"() {
        given:
        live()
        long started = System.nanoTime()

        when: 'a client sends a wrong password'
        String refused = new Socket('127.0.0.1', port + 1).withCloseable { s ->
            s.soTimeout = 5000
            s.outputStream.write('nope\r\n'.bytes)
            s.inputStream.readAllBytes() // until the server closes
        }.with { new String(it, StandardCharsets.ISO_8859_1) }

        then:
        refused == 'invalid password\r\n'

        when: 'a client logs in at about 1 s, sends its header lines and 5 s of 880 Hz'
        Thread.sleep(Math.max(0, 1000 - (long) ((System.nanoTime() - started) / 1e6)))
        def s = new Socket('127.0.0.1', port + 1)
        s.soTimeout = 5000
        s.outputStream.write('secret\r\n'.bytes)
        String ok = readExactly(s.inputStream, 'OK2\r\nicy-caps:11\r\n\r\n'.length())
        s.outputStream.write(('icy-name:Raw DJ\r\nicy-genre:tests\r\nicy-url:http://example.org/\r\nicy-pub:0\r\n' +
                'icy-br:128\r\ncontent-type:audio/mpeg\r\n\r\n').bytes)
        Process mp3 = tone(880, 5)
        double audioAt = 0
        def copy = Thread.start {
            byte[] first = mp3.inputStream.readNBytes(1)
            audioAt = (System.nanoTime() - started) / 1e9 // ffmpeg's start-up under load is not the DJ's
            s.outputStream.write(first)
            mp3.inputStream.transferTo(s.outputStream)
        }
        boolean connected = Net.await(5) { seen().contains('connect Raw DJ audio/mpeg') }
        String cgiMain = Net.raw(port, 'GET /admin.cgi?pass=secret&mode=updinfo&song=The+Band+-+Main+Port HTTP/1.0\r\n\r\n')
        boolean mainTitled = Net.await(5) { seen().contains('title Main Port by The Band') }
        String cgiIcy = Net.raw(port + 1, 'GET /admin.cgi?pass=secret&mode=updinfo&song=Other+-+Icy+Port HTTP/1.0\r\n\r\n')
        boolean icyTitled = Net.await(5) { seen().contains('title Icy Port by Other') }
        String cgiWrong = Net.raw(port, 'GET /admin.cgi?pass=wrong&mode=updinfo&song=Nope HTTP/1.0\r\n\r\n')
        copy.join(20000)
        double leftAt = (System.nanoTime() - started) / 1e9
        s.close()
        Thread.sleep(2500)
        String finalSeen = seen()
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the OK2 answer, byte for byte, and the client on air with its headers'
        ok == 'OK2\r\nicy-caps:11\r\n\r\n'
        connected
        Net.status(cgiMain) == 200
        mainTitled
        Net.status(cgiIcy) == 200
        icyTitled
        Net.status(cgiWrong) == 401
        !finalSeen.contains('Nope')

        and: 'the station played 440 Hz, then the DJ tone, then 440 Hz again'
        Math.abs(w.frequency(0.2, 0.9) - 440) < 5
        Math.abs(w.frequency(audioAt + 1.5, audioAt + 4) - 880) < 5
        Math.abs(w.frequency(leftAt + 1.5, w.seconds - 0.2) - 440) < 5
    }

    def "the password line may be user:password, for the harbor's user and password, and a client that sends it all at once with LF line ends (libshout's way) is taken"() {
        given:
        live(", user: 'dj'")

        when:
        def s = new Socket('127.0.0.1', port + 1)
        s.soTimeout = 5000
        s.outputStream.write('dj:secret\nicy-name:Pipelined\nicy-br:128\n\n'.bytes)
        String ok = readExactly(s.inputStream, 'OK2\r\nicy-caps:11\r\n\r\n'.length())
        Process mp3 = tone(880, 2)
        def copy = Thread.start { mp3.inputStream.transferTo(s.outputStream) }
        boolean connected = Net.await(5) { seen().contains('connect Pipelined audio/mpeg') }
        copy.join(20000)
        s.close()

        then: 'admitted, with audio/mpeg as Shoutcast v1 implies when the client names no type'
        ok == 'OK2\r\nicy-caps:11\r\n\r\n'
        connected
    }

    def "a client that sends nothing is closed after settings.harbor.headTimeout; failed passwords from one address count toward the harbor's limit"() {
        given:
        station = Engine.load('icy.groovy', """
            settings.harbor.headTimeout = 1
            settings.harbor.maxAuthFailures = 2
            output.dummy(mksafe(input.harbor('live', port: ${port}, password: 'secret', icy: true)))
        """.stripIndent(), [:])
        station.start(null)

        when: 'a client connects and says nothing'
        long t0 = System.nanoTime()
        int eof = new Socket('127.0.0.1', port + 1).withCloseable { s ->
            s.soTimeout = 5000
            s.inputStream.read()
        }
        double closedAfter = (System.nanoTime() - t0) / 1e9
        and: 'two wrong passwords, then the right one'
        def attempt = { String pw ->
            new Socket('127.0.0.1', port + 1).withCloseable { s ->
                s.soTimeout = 5000
                s.outputStream.write("${pw}\r\n".bytes)
                new String(s.inputStream.readAllBytes(), StandardCharsets.ISO_8859_1)
            }
        }
        String first = attempt('a')
        String second = attempt('b')
        String third = attempt('secret')

        then: 'closed within the timeout and a margin'
        eof == -1
        closedAfter >= 0.9 && closedAfter < 4
        first == 'invalid password\r\n'
        second == 'invalid password\r\n'
        and: 'the address is refused for the window, even with the right password'
        third == 'invalid password\r\n'
        and: 'the station never stalled'
        station.clocks().every { it.getLag() < 0.5 }
    }

    def "a port + 1 that is taken is a start error naming it, and the harbor port is let go again"() {
        given:
        def taken = new ServerSocket(port + 1)
        station = Engine.load('icy.groovy', """
            output.dummy(mksafe(input.harbor('live', port: ${port}, password: 'secret', icy: true)))
        """.stripIndent(), [:])

        when:
        station.start(null)

        then:
        Exception e = thrown()
        (e.message + ' ' + e.cause?.message).contains("Shoutcast (icy) port ${port + 1}")
        bindable(port)

        cleanup:
        taken.close()
    }

    def "a reload keeps the Shoutcast DJ on air and port + 1 listening; a reload without icy: true lets port + 1 go"() {
        given:
        Path script = dir.resolve('icy.groovy')
        def version = { int tone, boolean icy -> """
            def seen = []
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5, icy: ${icy})
            live.onMetadata { m -> seen << "title " + m.title }
            output.dummy(fallback(trackSensitive: false, live, sine(${tone}, amplitude: 0.3)))
            harbor.http.register('/seen', port: ${port}) { req -> seen.join('|') + '|connected ' + live.isConnected() }
        """.stripIndent() }
        Files.writeString(script, version(440, true))
        reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        def s = new Socket('127.0.0.1', port + 1)
        s.soTimeout = 5000
        s.outputStream.write('secret\r\nicy-name:Kept\r\n\r\n'.bytes)
        assert readExactly(s.inputStream, 'OK2\r\nicy-caps:11\r\n\r\n'.length()).startsWith('OK2')
        Process mp3 = tone(880, 12)
        Thread.start { try { mp3.inputStream.transferTo(s.outputStream) } catch (IOException ignored) { } }
        assert Net.await(5) { seen().endsWith('connected true') }

        when: 'the script is reloaded with icy: true again'
        boolean first = reloader.reload()
        Thread.sleep(1000)
        String afterFirst = seen()
        String cgi = Net.raw(port + 1, 'GET /admin.cgi?pass=secret&mode=updinfo&song=After+Reload HTTP/1.0\r\n\r\n')
        boolean titled = Net.await(5) { seen().contains('title After Reload') }

        and: 'then without it'
        Files.writeString(script, version(550, false))
        boolean second = reloader.reload()
        boolean released = Net.await(5) { bindable(port + 1) }

        then: 'the DJ streamed through the first reload, the title went to the new station, port + 1 went with icy: true'
        first
        afterFirst.endsWith('connected true')
        Net.status(cgi) == 200
        titled
        second
        released

        cleanup:
        s.close()
    }

    def "GStreamer's shout2send in ICY mode (libshout: !POKE probe, then port + 1) streams to the station, and its title reaches the metadata"() {
        given:
        live()
        long started = System.nanoTime()

        when: 'shout2send is given the harbor port; libshout connects to port + 1 itself'
        def gst = new ProcessBuilder('gst-launch-1.0', '-q', 'audiotestsrc', 'freq=660', 'volume=0.4', 'is-live=true',
                'num-buffers=600', '!', 'audioconvert', '!', 'taginject', 'tags=title=GstSong,artist=GstBand', '!',
                'lamemp3enc', 'target=bitrate', 'bitrate=128', 'cbr=true', '!',
                'shout2send', 'ip=127.0.0.1', "port=${port}".toString(), 'mount=/', 'password=secret', 'protocol=icy',
                'streamname=GstDJ').redirectErrorStream(true).start()
        processes << gst
        boolean connected = Net.await(10) { seen().contains('connect GstDJ audio/mpeg') }
        double connectedAt = (System.nanoTime() - started) / 1e9
        boolean titled = Net.await(10) { seen().contains('title GstSong by GstBand') }
        Thread.sleep(Math.max(0, 4000 - (long) (((System.nanoTime() - started) / 1e9 - connectedAt) * 1000)))
        gst.destroy()
        gst.waitFor(10, TimeUnit.SECONDS)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then:
        connected
        titled
        'the DJ tone on air, a buffer after the connection'
        Math.abs(w.frequency(connectedAt + 1.5, connectedAt + 3.5) - 660) < 5
    }
}
