package org.groovecast.scripts.reload

import java.nio.ByteBuffer
import java.nio.channels.SocketChannel
import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.StationReloader
import org.groovecast.scripts.live.LiveInputSpec
import org.groovecast.scripts.rtmp.RtmpSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * What a reload keeps besides harbor listeners: the live DJ on input.harbor, the source
 * connection to a real icecast2, RTMP publishers and players, the HLS segment sequence and a recording, all without an id:
 * (matched by kind and endpoint); what it starts and stops is reported.
 */
@Tag("integration")
class ReloadKeepsSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    int rtmpPort = Net.freePort()
    Icecast icecast
    List<Process> rtmpClients = []
    StationReloader reloader
    Process dj

    def cleanup() {
        reloader?.stop()
        dj?.destroy()
        rtmpClients*.destroyForcibly()
        icecast?.kill()
    }

    String station(int tone, String extra) {
        """
        def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5)
        def s = fallback(trackSensitive: false, live, sine(${tone}, amplitude: 0.3))
        output.icecast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ${icecast.port}, password: '${Icecast.SOURCE_PASSWORD}',
                mount: '/radio')
        output.file.hls('${dir}/hls', [a: aac(bitrate: 64)], s, segmentDuration: 1, segments: 30)
        output.file(wav(), '${dir}/rec.wav', s)
        rtmp.server(port: ${rtmpPort}, bind: '127.0.0.1')
        ${extra}
        """.stripIndent()
    }

    /** A raw listener of the icecast mount: true while the server keeps sending. */
    static final class Listener {
        final SocketChannel channel
        long bytes

        Listener(int port) {
            channel = SocketChannel.open(new InetSocketAddress('127.0.0.1', port))
            channel.write(ByteBuffer.wrap("GET /radio HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".bytes))
        }

        /** Reads for {@code ms}; false if the server closed the connection. */
        boolean readFor(long ms) {
            channel.configureBlocking(false)
            ByteBuffer b = ByteBuffer.allocate(65536)
            long end = System.currentTimeMillis() + ms
            while (System.currentTimeMillis() < end) {
                b.clear()
                int r = channel.read(b)
                if (r < 0) return false
                bytes += r
                if (r == 0) Thread.sleep(20)
            }
            true
        }
    }

    def "two reloads keep the DJ, the icecast source connection, the HLS sequence and the recording"() {
        given:
        icecast = new Icecast().start()
        Path script = dir.resolve('station.groovy')
        Files.writeString(script, station(440, "output.file(wav(), '${dir}/old.wav', s)"))
        reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        assert Net.await(10) { icecast.hasMount('/radio') }
        def listener = new Listener(icecast.port)
        dj = LiveInputSpec.sourceClient(port, 'secret', 30, 880)
        String rtmpUrl = "rtmp://127.0.0.1:${rtmpPort}/live/cam"
        rtmpClients << new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-stream_loop', '-1', '-i',
                RtmpSpec.flvClip('rtmp-720p.flv', 8).toString(), '-c', 'copy', '-f', 'flv', rtmpUrl).start()
        assert listener.readFor(1500)
        rtmpClients << new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-i', rtmpUrl, '-c', 'copy', '-f', 'null', '-')
                .start()
        assert listener.readFor(1500)
        long beforeReload = System.nanoTime()

        when: 'the tone behind the DJ changes, old.wav gives way to new.wav'
        Files.writeString(script, station(550, "output.file(wav(), '${dir}/new.wav', s)"))
        boolean first = reloader.reload()
        String playlistAfterSwap = Files.readString(dir.resolve('hls/a.m3u8'))
        def report = reloader.lastReload()
        boolean listenedThrough = listener.readFor(2500)
        Files.writeString(script, station(660, "output.file(wav(), '${dir}/new.wav', s)"))
        boolean second = reloader.reload()
        listenedThrough &= listener.readFor(2500)
        Path heard = dir.resolve('heard.wav')
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-t', '4', '-i', "http://127.0.0.1:${icecast.port}/radio".toString(),
                   '-ac', '1', '-ar', '44100', '-bitexact', heard.toString()])
        boolean djConnected = dj.isAlive()
        boolean rtmpConnected = rtmpClients.every { it.isAlive() }
        double ranSeconds = (System.nanoTime() - beforeReload) / 1e9
        reloader.stop()
        List<String> playlist = Files.readAllLines(dir.resolve('hls/a.m3u8'))
        List<Integer> numbers = playlist.findAll { it.endsWith('.ts') }.collect { (it =~ /a_(\d+)\.ts/)[0][1] as int }

        then:
        first
        second

        and: 'the DJ never left, and the new graph plays it'
        djConnected
        // icecast's burst starts the recording about 4 s back, before the reload's encoder seam
        Math.abs(Wav.read(heard).frequency(2.5, 3.9) - 880) < 5

        and: 'icecast never saw the source leave: its listener was never dropped'
        listenedThrough

        and: 'the RTMP publisher and its player stayed connected'
        rtmpConnected

        and: 'one HLS sequence, numbered on, a discontinuity at each reload, never ended in between'
        !playlistAfterSwap.contains('#EXT-X-ENDLIST')
        numbers == (numbers[0]..numbers[-1]).toList()
        numbers.size() >= 6
        playlist.count { it == '#EXT-X-DISCONTINUITY' } >= 2

        and: 'the recording runs through both reloads'
        Wav.read(dir.resolve('rec.wav')).seconds > ranSeconds + 2

        and: 'each reload says what it kept, started and stopped'
        report.kept().any { it.startsWith('output.icecast icecast://127.0.0.1') }
        report.kept().any { it.startsWith('output.file.hls ') }
        report.kept().contains("output.file ${dir}/rec.wav".toString())
        report.started() == ["output.file ${dir}/new.wav".toString()]
        report.stopped() == ["output.file ${dir}/old.wav".toString()]
        report.carried() == ["input.harbor :${port}/live".toString()]
        reloader.current().network().lastKept().contains("rtmp :${rtmpPort}".toString())
    }
}
