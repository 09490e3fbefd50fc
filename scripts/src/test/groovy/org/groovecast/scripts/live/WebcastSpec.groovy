package org.groovecast.scripts.live

import ch.qos.logback.classic.Level
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import java.security.KeyStore
import java.security.cert.CertificateFactory
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import javax.net.ssl.SSLContext
import javax.net.ssl.TrustManagerFactory
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.SelfSigned
import org.groovecast.scripts.support.Wav
import org.groovecast.scripts.support.Webcast
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Browser DJs on input.harbor: the webcast protocol of webcast.js and AzuraCast's web DJ (a
 * WebSocket on the mount, a hello, binary messages of encoded audio, metadata messages), spoken by
 * the JDK's WebSocket client exactly as a browser speaks it, and broken on purpose with raw frames.
 */
// alone (scripts/pom.xml): its DJs stream in real time from the test's own threads and must stay on air
// to the end; beside other specs at load 11-18 (others' builds) a DJ fell silent long enough to be
// dropped, or was heard with gaps (frequency off), in two clean-clone runs of three
@Tag("integration")
@Tag("alone")
class WebcastSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station

    def cleanup() {
        station?.stop()
    }

    /** {@code seconds} of an {@code freq} Hz tone as MP3, made by ffmpeg, as a browser's MP3 encoder would send it. */
    byte[] mp3(int freq, double seconds) {
        Path f = dir.resolve("tone-${freq}.mp3")
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i',
                   "sine=frequency=${freq}:sample_rate=44100:duration=${seconds}".toString(), '-ac', '2',
                   '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', f.toString()])
        Files.readAllBytes(f)
    }

    Station liveStation() {
        Engine.load('webcast.groovy', """
            def seen = []
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 2.0)
            live.onConnect { c -> seen << "connect " + c.user }
            live.onMetadata { m -> if (m.artist) seen << "title " + m.title + " by " + m.artist }
            live.onDisconnect { -> seen << 'disconnect' }
            output.file(wav(), '${dir}/out.wav', fallback(trackSensitive: false, live, sine(440, amplitude: 0.3)))
            harbor.http.register('/seen', port: ${port}) { req -> seen.join('|') }
            harbor.http.register('/kick', port: ${port}) { req -> live.stop(); 'kicked' }
        """.stripIndent(), [:])
    }

    String seen() {
        new URL("http://127.0.0.1:${port}/seen").text
    }

    def "a browser DJ's hello, MP3 in binary messages (some in fragments) and metadata message: on air, the title reaches onMetadata, a ping is answered"() {
        given:
        byte[] tone = mp3(880, 5)
        station = liveStation()
        station.start(null)
        long t0 = System.nanoTime()

        when: 'at about 1 s a DJ says hello (audio/mpeg), then streams 5 s of 880 Hz, with a title after 2 s'
        Thread.sleep(1000)
        def dj = new Webcast.Client(port)
        double connectedAt = (System.nanoTime() - t0) / 1e9
        dj.hello('audio/mpeg', 'source', 'secret')
        dj.socket.sendPing(ByteBuffer.wrap('are you there'.bytes)).get(5, TimeUnit.SECONDS)
        dj.stream(tone, 5) { n -> if (n == 20) dj.metadata([title: 'Sine Song', artist: 'The Oscillators']) }
        double endedAt = (System.nanoTime() - t0) / 1e9
        ByteBuffer pong = dj.pong.get(5, TimeUnit.SECONDS)
        boolean titled = Net.await(5) { seen().contains('title Sine Song by The Oscillators') }
        dj.close()
        boolean left = Net.await(5) { seen().endsWith('disconnect') }
        Thread.sleep(4500) // the 2 s buffered play out, then the music
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the ping came back with its payload'
        new String(pong.array(), pong.position(), pong.remaining()) == 'are you there'

        and: 'the music, then the DJ within 2 s of connecting (its first 1.5 s sent at once, 2 s buffered), then the music again'
        Math.abs(w.frequency(0.2, 0.9) - 440) < 5
        Math.abs(w.frequency(connectedAt + 2, endedAt - 0.3) - 880) < 5
        Math.abs(w.frequency(w.seconds - 1.2, w.seconds - 0.2) - 440) < 5

        and: 'onConnect saw the user of the hello; the metadata message reached onMetadata; the end, onDisconnect'
        titled
        left
    }

    def "a wrong password (1008), a second DJ (1013), garbage and oversize frames (1002, 1009) each close only their own connection; the DJ on air goes on"() {
        given:
        byte[] tone = mp3(880, 8)
        station = liveStation()
        station.start(null)
        long t0 = System.nanoTime()
        def log = new LogCapture('org.groovecast.net.harbor.WebcastConnection', Level.INFO)
        def liveLog = new LogCapture('org.groovecast.net.harbor.LiveInput')

        when: 'a DJ streams 8 s from about 1 s'
        Thread.sleep(1000)
        def dj = new Webcast.Client(port)
        double connectedAt = (System.nanoTime() - t0) / 1e9
        dj.hello('audio/mpeg', 'source', 'secret')
        Map codes = [:]
        Thread streaming = Thread.startVirtualThread { dj.stream(tone, 8) }
        assert Net.await(5) { seen().startsWith('connect source') }

        and: 'meanwhile, a DJ with a wrong password'
        def wrong = new Webcast.Client(port)
        wrong.hello('audio/mpeg', 'source', 'guess')
        codes.wrong = wrong.closed.get(10, TimeUnit.SECONDS)[0]

        and: 'a second DJ with the right one'
        def second = new Webcast.Client(port)
        second.hello('audio/mpeg', 'source', 'secret')
        codes.second = second.closed.get(10, TimeUnit.SECONDS)[0]

        and: 'an Icecast DJ with the right password'
        String icecast = Net.raw(port, "SOURCE /live HTTP/1.0\r\nAuthorization: Basic ${'source:secret'.bytes.encodeBase64()}\r\n" +
                "Content-Type: audio/mpeg\r\n\r\n")

        and: 'upgrade requests the handshake cannot take: an old WebSocket version, another subprotocol'
        String oldVersion = Net.raw(port, "GET /live HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n")
        String otherProtocol = Net.raw(port, "GET /live HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: chat\r\n\r\n")

        and: 'bytes that are no WebSocket frame, after a handshake done by hand'
        String handshake = null
        codes.garbage = new Webcast.Raw(port).withCloseable { r ->
            handshake = r.answer
            r.write(('GARBAGE, not a frame at all\r\n' * 3).bytes)
            r.closeCode()
        }

        and: 'an unmasked frame (a client must mask)'
        codes.unmasked = new Webcast.Raw(port).withCloseable { r ->
            r.frame(1, '{"type":"hello","data":{"mime":"audio/mpeg","user":"source","password":"secret"}}'.bytes, false)
            r.closeCode()
        }

        and: 'binary data before any hello'
        codes.noHello = new Webcast.Raw(port).withCloseable { r ->
            r.frame(2, new byte[100])
            r.closeCode()
        }

        and: 'a hello that is no JSON'
        codes.badHello = new Webcast.Raw(port).withCloseable { r ->
            r.text('hello, let me in')
            r.closeCode()
        }

        and: 'a frame announcing 2 MiB'
        codes.bigFrame = new Webcast.Raw(port).withCloseable { r ->
            r.write([0x82, 0xff, 0, 0, 0, 0, 0, 0x20, 0, 0, 1, 2, 3, 4] as byte[])
            r.closeCode()
        }

        and: 'a message of two 700 KiB fragments, each frame within the limit, the message over it'
        codes.bigMessage = new Webcast.Raw(port).withCloseable { r ->
            r.frame(2, new byte[700 * 1024], true, false)
            r.frame(0, new byte[700 * 1024], true, true)
            r.closeCode()
        }
        streaming.join(20_000)
        double endedAt = (System.nanoTime() - t0) / 1e9
        boolean stillConnected = !dj.closed.isDone() && !seen().contains('disconnect')
        dj.close()
        Thread.sleep(1000)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))
        log.close()
        liveLog.close()

        then: "the handshake is RFC 6455's, with the webcast subprotocol"
        handshake.startsWith('HTTP/1.1 101 ')
        handshake.contains('Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n') // RFC 6455 1.3's example key
        handshake.contains('Sec-WebSocket-Protocol: webcast\r\n')

        and: 'the mount taken by the browser DJ is refused to an Icecast DJ as to any second one'
        Net.status(icecast) == 403

        and: 'a handshake it cannot take is answered in HTTP'
        Net.status(oldVersion) == 426
        oldVersion.contains('Sec-WebSocket-Version: 13')
        Net.status(otherProtocol) == 400
        otherProtocol.contains('subprotocol "webcast"')

        and: 'each bad client was closed with its code'
        codes == [wrong: 1008, second: 1013, garbage: 1002, unmasked: 1002, noHello: 1002, badHello: 1002,
                  bigFrame: 1009, bigMessage: 1009]

        and: 'the DJ streamed on, heard all along'
        stillConnected
        Math.abs(w.frequency(connectedAt + 2, endedAt - 0.3) - 880) < 5

        and: 'a log line for each'
        def lines = log.messages()
        lines.any { it.contains('refused browser DJ') && it.contains('bad user or password') }
        liveLog.messages().any { it.contains('a source client is already streaming there') }
        lines.count { it.contains('sent a bad WebSocket frame') } >= 2
        // before its login a client is held to 16 KiB (WebcastFrameLimit), from the frame's header; the 1 MiB
        // limit of a DJ that logged in is WebcastConnectionTest's
        lines.count { it.contains('sent a bad WebSocket frame (message over 16384 bytes before the login)') } == 2
        lines.any { it.contains('the first message must be a hello, got binary data') }
        lines.any { it.contains('no JSON object') }
    }

    def "live.stop() ends a browser DJ's stream with a close frame, 1000 and the reason, not a bare hang-up"() {
        given:
        byte[] tone = mp3(880, 3)
        station = liveStation()
        station.start(null)

        when:
        def dj = new Webcast.Client(port)
        dj.hello('audio/mpeg', 'source', 'secret')
        dj.stream(tone, 3)
        assert Net.await(5) { seen().startsWith('connect source') }
        String kicked = new URL("http://127.0.0.1:${port}/kick").text
        List closed = dj.closed.get(5, TimeUnit.SECONDS)

        then:
        kicked == 'kicked'
        closed == [1000, 'the station ended the stream']
        Net.await(5) { seen().endsWith('disconnect') }
    }

    def "a reload keeps the browser DJ on air, and its metadata messages then reach the new script"() {
        given:
        byte[] tone = mp3(880, 8)
        Path script = dir.resolve('station.groovy')
        def text = { String tag -> """
            def seen = []
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 2.0)
            live.onMetadata { m -> if (m.artist) seen << "${tag} " + m.title }
            output.file(wav(), '${dir}/rec.wav', fallback(trackSensitive: false, live, sine(440, amplitude: 0.3)))
            harbor.http.register('/seen', port: ${port}) { req -> seen.join('|') }
        """.stripIndent() }
        Files.writeString(script, text('old'))
        def reloader = new org.groovecast.host.StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        long t0 = System.nanoTime()

        when: 'a DJ streams 8 s; 3 s in, the script is reloaded; 6 s in, the DJ sends a title'
        Thread.sleep(1000)
        def dj = new Webcast.Client(port)
        double connectedAt = (System.nanoTime() - t0) / 1e9
        dj.hello('audio/mpeg', 'source', 'secret')
        boolean reloaded = false
        Thread reloading = null
        dj.stream(tone, 8) { n ->
            if (n == 30) {
                // on a thread of its own: the DJ's sending goes on at its pace while the new script compiles
                reloading = Thread.startVirtualThread {
                    Files.writeString(script, text('new'))
                    reloaded = reloader.reload()
                }
            }
            if (n == 60) {
                reloading.join(10_000)
                dj.metadata([title: 'After Reload', artist: 'Band'])
            }
        }
        double endedAt = (System.nanoTime() - t0) / 1e9
        boolean titled = Net.await(5) { seen().contains('new After Reload') }
        boolean kept = !dj.closed.isDone()
        dj.close()
        reloader.stop()
        Wav w = Wav.read(dir.resolve('rec.wav'))

        then: 'the DJ was not dropped and is heard through the reload'
        reloaded
        kept
        Math.abs(w.frequency(connectedAt + 2, endedAt - 0.3) - 880) < 5

        and: "its title went to the new script's onMetadata"
        titled
    }

    /** A TLS context that trusts {@code cert} alone, as a browser that was told to. */
    static SSLContext trusting(SelfSigned cert) {
        KeyStore ks = KeyStore.getInstance(KeyStore.defaultType)
        ks.load(null, null)
        Files.newInputStream(cert.cert).withCloseable { ks.setCertificateEntry('harbor', CertificateFactory.getInstance('X.509').generateCertificate(it)) }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.defaultAlgorithm)
        tmf.init(ks)
        SSLContext ssl = SSLContext.getInstance('TLS')
        ssl.init(null, tmf.trustManagers, null)
        ssl
    }

    def "on a harbor.tls port: a browser DJ over wss:// is heard; a hello sent in the same TLS record as the upgrade request is read (a wrong password: 1008)"() {
        given:
        def cert = new SelfSigned(dir.resolve('tls'), 'harbor')
        SSLContext ssl = trusting(cert)
        byte[] tone = mp3(880, 5)
        station = Engine.load('webcast-tls.groovy', """
            harbor.tls(port: ${port}, certificate: '${cert.cert}', key: '${cert.key}')
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 2.0)
            output.file(wav(), '${dir}/out.wav', fallback(trackSensitive: false, live, sine(440, amplitude: 0.3)))
        """.stripIndent(), [:])
        station.start(null)
        long t0 = System.nanoTime()

        when: 'a DJ that sends its hello (a wrong password) with its upgrade request, without waiting for the 101'
        String hello = '{"type":"hello","data":{"mime":"audio/mpeg","user":"source","password":"guess"}}'
        int early = new Webcast.Raw(port, '/live', ssl, Webcast.Raw.frameBytes(1, hello.getBytes(StandardCharsets.UTF_8)))
                .withCloseable { r -> r.closeCode() }

        and: 'a DJ with the JDK WebSocket client over wss:// streams 5 s of 880 Hz'
        Thread.sleep(Math.max(0, 1000 - (long) ((System.nanoTime() - t0) / 1e6)))
        def dj = new Webcast.Client(port, '/live', ssl)
        double connectedAt = (System.nanoTime() - t0) / 1e9
        dj.hello('audio/mpeg', 'source', 'secret')
        dj.stream(tone, 5)
        double endedAt = (System.nanoTime() - t0) / 1e9
        boolean stillConnected = !dj.closed.isDone()
        dj.close()
        Thread.sleep(1000)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the early hello was read as WebSocket frames, not as TLS records: refused with its close code'
        early == 1008

        and: 'the wss:// DJ was on air'
        stillConnected
        Math.abs(w.frequency(0.2, 0.9) - 440) < 5
        Math.abs(w.frequency(connectedAt + 2, endedAt - 0.3) - 880) < 5
    }
}
