package org.groovecast.scripts.remote

import ch.qos.logback.classic.Level
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.SilentPeer
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** output.url to ffmpeg receivers: SRT (listener mode, restarted), UDP (MPEG-TS) and RTP. */
@Tag("integration")
class OutputUrlSpec extends Specification {
    @TempDir
    Path dir

    Station station
    List<Process> receivers = []

    def cleanup() {
        station?.stop()
        receivers.each { it.destroyForcibly(); it.waitFor(5, TimeUnit.SECONDS) }
    }

    /** ffmpeg receiving {@code url} for {@code seconds} into a mono WAV. */
    Process receive(String url, String name, double seconds) {
        Process p = new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', url, '-t', seconds.toString(),
                '-ac', '1', '-ar', '44100', '-bitexact', dir.resolve(name).toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve(name + '.txt').toFile()).start()
        receivers << p
        p
    }

    double heard(Process receiver, String name, double within = 30) {
        assert receiver.waitFor((long) within, TimeUnit.SECONDS): "the receiver got nothing: ${Files.readString(dir.resolve(name + '.txt'))}"
        Wav w = Wav.read(dir.resolve(name))
        assert w.seconds > 1.5
        w.frequency(0.3, w.seconds - 0.1)
    }

    Station stream(String output) {
        station = Engine.load('url.groovy', """
            def s = sine(440, amplitude: 0.3)
            ${output}
        """.stripIndent(), [:])
        station.start(null)
        station
    }

    def "output.url streams MPEG-TS over SRT to an ffmpeg listener, and reconnects when the listener is restarted"() {
        given:
        def logged = new LogCapture('org.groovecast.ffmpeg.remote.UrlOutput', Level.INFO)
        int port = Net.freePort()
        String listener = "srt://127.0.0.1:${port}?mode=listener"
        Process first = receive(listener, 'first.wav', 4)
        Thread.sleep(500)
        stream("output.url('srt://127.0.0.1:${port}', aac(bitrate: 96), s)")

        expect: 'the tone arrives'
        Math.abs(heard(first, 'first.wav') - 440) < 3

        when: 'the listener went (it stops after 4 s) and comes back a little later'
        Thread.sleep(1500)
        Process second = receive(listener, 'second.wav', 6)
        boolean back = Net.await(30) { logged.messages().any { it ==~ /output\.url srt:\/\/.*: back after \d+\.\d s/ } }
        def lines = logged.messages() // before the second listener leaves in turn (it holds 3 s to count as back)
        println lines.join('\n')

        then: 'the output connected again, logged the outage once and its end, and the tone arrives again'
        back
        // from the first connection that held on (a listener slow to start may cost an attempt before it)
        int held = lines.findIndexOf { it ==~ /output\.url srt:\/\/.*: (streaming \(mpegts\)|back after .*)/ }
        held >= 0
        lines.drop(held).count { it ==~ /output\.url srt:\/\/127\.0\.0\.1:\d+: .*; retrying in \d+\.\d s/ } == 1
        Math.abs(heard(second, 'second.wav', 40) - 440) < 3
        station.clocks().every { it.getLag() < 0.5 }

        cleanup:
        logged.close()
    }

    def "a TCP peer that stops reading costs the oldest packets, then is dropped after timeout and called again; the clock never waits"() {
        given: 'a peer that accepts and never reads, with small socket buffers on both sides'
        def logged = new LogCapture('org.groovecast.ffmpeg.remote.UrlOutput', Level.INFO)
        def peer = new SilentPeer(4096)

        when:
        stream("output.url('tcp://127.0.0.1:${peer.port}', mp3(bitrate: 320), s, queue: 1, timeout: 3, "
                + "options: [send_buffer_size: 4096])")
        boolean slow = Net.await(20) { logged.messages().any { it.contains('the peer is too slow; dropping the oldest packets') } }
        boolean dropped = Net.await(20) { logged.messages().any { it.contains('the peer took nothing for 3.0 s; retrying in') } }
        boolean again = Net.await(20) { peer.accepted.size() >= 2 }
        boolean backTooSoon = logged.messages().any { it.contains('back after') } // it took nothing: no comeback
        println logged.messages().join('\n')

        then:
        slow
        dropped
        again
        !backTooSoon
        station.clocks().every { it.getLag() < 0.5 }

        cleanup:
        logged.close()
        peer.close()
    }

    def "output.url streams to icecast2 through FFmpeg\'s icecast protocol, and comes back after the server restarts"() {
        given:
        def logged = new LogCapture('org.groovecast.ffmpeg.remote.UrlOutput', Level.DEBUG)
        def icecast = new Icecast().start()
        String url = "icecast://source:${Icecast.SOURCE_PASSWORD}@127.0.0.1:${icecast.port}/u"

        when: 'the mount is fed as MP3, the muxer being the encoder\'s own'
        stream("output.url('${url}', mp3(bitrate: 128), s, options: [ice_name: 'Url FM'])")

        then: 'the mount is up with its name, and a listener hears the tone'
        Net.await(15) { icecast.hasMount('/u') }
        icecast.status().contains('"server_name":"Url FM"')
        Math.abs(listen(icecast.port, 'ice1.wav') - 440) < 3

        when: 'icecast2 goes away and a new one takes the port'
        icecast.stop()
        Thread.sleep(1500)
        icecast = new Icecast(icecast.port).start()

        then: 'the output reconnects and the mount plays again; the clock never waited'
        Net.await(60) { icecast.hasMount('/u') } // the backoff may have reached 16 s if the server was slow to come back
        Math.abs(listen(icecast.port, 'ice2.wav') - 440) < 3
        station.clocks().every { it.getLag() < 0.5 }

        cleanup:
        println logged.messages().join('\n')
        logged.close()
        station?.stop()
        station = null
        icecast?.kill()
    }

    double listen(int port, String name) {
        Media.heard(dir.resolve(name), "http://127.0.0.1:${port}/u")
    }

    def "output.url streams MPEG-TS over UDP, the format guessed from the URL"() {
        given:
        int port = Net.freePort()
        Process r = receive("udp://127.0.0.1:${port}", 'udp.wav', 3)
        Thread.sleep(500)
        stream("output.url('udp://127.0.0.1:${port}?pkt_size=1316', mp3(bitrate: 128), s)")

        expect:
        Math.abs(heard(r, 'udp.wav') - 440) < 3
    }

    def "output.url streams RTP (MP3, a static payload type) to an ffmpeg receiver"() {
        given:
        int port = Net.freePort()
        Process r = receive("rtp://127.0.0.1:${port}", 'rtp.wav', 3)
        Thread.sleep(500)
        stream("output.url('rtp://127.0.0.1:${port}', mp3(bitrate: 128), s)")

        expect:
        Math.abs(heard(r, 'rtp.wav') - 440) < 3
    }

    def "output.url writes a file by its extension, and its arguments are checked when the script loads"() {
        given:
        Path ts = dir.resolve('out.ts')

        when:
        station = Engine.render('file.groovy', """
            output.url('${ts}', aac(), sine(440, amplitude: 0.3))
        """.stripIndent(), 3)
        def probe = ['ffprobe', '-v', 'error', '-show_entries', 'format=format_name', '-of', 'csv=p=0', ts.toString()].execute()

        then:
        probe.text.trim() == 'mpegts'

        when:
        Engine.load('bad.groovy', "output.url(${args})", [:])

        then:
        def e = thrown(Exception)
        e.message.contains(message)

        where:
        args                                                      | message
        "'udp://127.0.0.1:9', wav(), sine()"                      | 'output.url(): needs an FFmpeg encoder such as mp3()'
        "'udp://127.0.0.1:9', mp3(), sine(), format: 'nosuch'"    | "output.url(): unknown format 'nosuch'"
        "'udp://127.0.0.1:9', opus(), sine(), format: 'adts'"     | 'output.url(): opus() cannot be muxed as adts'
        "'udp://127.0.0.1:9', mp3(), sine(), queue: 0"            | 'output.url(): queue must be positive'
    }

    def "stopping output.url never waits for a peer that stopped reading: a reload's successor starts at once, the writer gives up on its own"() {
        given: 'a TCP peer that takes the connection and never reads, with buffers so small that the writer blocks in a second'
        def peer = new SilentPeer(2048)
        def logged = new LogCapture('org.groovecast.ffmpeg.remote.UrlOutput', Level.INFO)
        stream("output.url('tcp://127.0.0.1:${peer.port}', mp3(bitrate: 320), s, format: 'mp3', timeout: 10, " +
                "options: [send_buffer_size: '2048'])")
        def output = station.clocks()*.outputs().flatten().find { it.kind() == 'output.url' }
        assert Net.await(10) { output.isConnected() }
        Thread.sleep(2000) // the peer's window and the send buffer are full: the writer blocks in a write

        when: 'the station stops as a reload stops it'
        long t0 = System.nanoTime()
        double successorAfter = -1
        // The phases of a stop as the reload's hand-over runs them (ReloadHandOver), the
        // successor's start between the old outputs' close and the rest.
        station.beginStop(false)
        station.stopClocks()
        station.stopOutputs()
        successorAfter = (System.nanoTime() - t0) / 1e9
        station.release()
        double stoppedAfter = (System.nanoTime() - t0) / 1e9
        println "output.url to a peer that does not read: the successor ran after ${successorAfter} s, stopped after ${stoppedAfter} s"

        then: 'the outputs closed at once (no dead air for the new station); the shutdown gave the writer its budget (5 s) and no more'
        successorAfter >= 0 && successorAfter < 1.5
        stoppedAfter < 9

        cleanup:
        logged.close()
        peer.close()
    }

    def "an offline render whose peer comes up late loses nothing: the writer, in its backoff when the render ends, still writes the tail"() {
        given: 'a TCP peer that starts listening only once the writer failed to connect and the output closed (the render is over)'
        int port = Net.freePort()
        Path got = dir.resolve('got.ts')
        def logged = new LogCapture('org.groovecast.ffmpeg.remote.UrlOutput')
        station = Engine.load('late.groovy', """
            output.url('tcp://127.0.0.1:${port}', aac(), sine(440, amplitude: 0.3))
        """.stripIndent(), ['clock.sync': 'none'])
        boolean closedInBackoff = false
        def peer = Thread.startDaemon {
            Net.await(30) { logged.messages().any { it.contains('retrying in') } }
            closedInBackoff = Net.await(30) {
                def o = station.clocks()*.outputs().flatten().find { it.kind() == 'output.url' }
                o != null && !o.isStarted()
            }
            new ServerSocket(port, 1, InetAddress.getByName('127.0.0.1')).withCloseable { server ->
                server.soTimeout = 30_000
                server.accept().withCloseable { Files.copy(it.inputStream, got) }
            }
        }

        when:
        long t0 = System.nanoTime()
        station.start(java.time.Duration.ofSeconds(3))
        assert station.awaitStopped(java.time.Duration.ofSeconds(90))
        double took = (System.nanoTime() - t0) / 1e9
        peer.join(10_000)
        double seconds = Files.exists(got) && Files.size(got) > 0 ? Media.decodedSeconds(got) : 0
        println "offline render to a late peer: ${String.format('%.1f', took)} s, the peer got ${seconds} s"

        then: 'the output closed while its writer was in its backoff, and all of the render arrived'
        closedInBackoff
        seconds > 2.7 && seconds < 3.2

        cleanup:
        logged.close()
    }
}
