package org.groovecast.scripts.remote

import ch.qos.logback.classic.Level
import java.nio.charset.StandardCharsets
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** input.http and input.ffmpeg pulling a real icecast2 mount fed by an ffmpeg source client, and misbehaving servers. */
@Tag("integration")
class InputHttpSpec extends Specification {
    @TempDir
    Path dir

    Icecast icecast
    Station station
    List<Process> processes = []
    List<Closeable> closing = []

    def cleanup() {
        station?.stop()
        processes.each { it.destroyForcibly(); it.waitFor(5, TimeUnit.SECONDS) }
        closing.each { it.close() }
        icecast?.kill()
    }

    /** ffmpeg as the mount's source client: a tone of {@code freq} Hz, as MP3, in real time. */
    Process feed(int freq, String mount = '/m') {
        Process p = new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i',
                "sine=frequency=${freq}:sample_rate=44100".toString(), '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k',
                '-f', 'mp3', '-content_type', 'audio/mpeg', '-ice_name', 'Remote FM',
                "icecast://source:${Icecast.SOURCE_PASSWORD}@127.0.0.1:${icecast.port}${mount}".toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("feed-${processes.size()}.txt").toFile()).start()
        processes << p
        assert Net.await(10) { icecast.hasMount(mount) }: 'the source client did not get on the mount'
        p
    }

    /** Sets the mount's title through icecast's admin interface, as a source client's software does. */
    void title(String song, String mount = '/m') {
        def url = new URL("http://127.0.0.1:${icecast.port}/admin/metadata?mount=${mount}&mode=updinfo&song="
                + URLEncoder.encode(song, StandardCharsets.UTF_8))
        def c = url.openConnection()
        c.setRequestProperty('Authorization', 'Basic ' + 'admin:adminpw'.bytes.encodeBase64())
        assert c.inputStream.text.contains('Metadata update successful')
    }

    /** The station: what the remote plays, 660 Hz when it is not ready, into a WAV; titles logged. */
    Station relay(String input) {
        station = Engine.load('relay.groovy', """
            def remote = ${input}
            remote.onMetadata { m -> log.info("remote metadata: artist=\${m.artist} title=\${m.title}"); log.info("remote tags: \${m}") }
            thread.run(delay: 1, every: 1) { -> if (!remote.isConnected()) log.info("remote not connected") }
            output.file(wav(), '${dir}/out.wav', fallback(trackSensitive: false, remote, sine(660, amplitude: 0.3)))
        """.stripIndent(), [:])
        station.start(null)
        station
    }

    /** The frequency the output played over the last {@code seconds} (the WAV read while it is written). */
    double playing(double seconds = 1.5) {
        Path copy = dir.resolve('snapshot.wav')
        java.nio.file.Files.copy(dir.resolve('out.wav'), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING)
        Wav w = unfinished(copy)
        w.seconds < seconds ? 0 : w.frequency(w.seconds - seconds, w.seconds)
    }

    /** A 16-bit WAV still being written (its sizes not fixed up yet): what its data chunk holds so far. */
    static Wav unfinished(Path path) {
        byte[] bytes = java.nio.file.Files.readAllBytes(path)
        def b = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        String text = new String(bytes, 0, Math.min(200, b.capacity()), 'ISO-8859-1')
        int fmt = text.indexOf('fmt ')
        int data = text.indexOf('data')
        if (fmt < 0 || data < 0) return new Wav(channels: 1, sampleRate: 44100, bits: 16, samples: new short[1][0])
        int channels = b.getShort(fmt + 10)
        int rate = b.getInt(fmt + 12)
        int frames = (b.capacity() - data - 8).intdiv(2 * channels)
        short[][] samples = new short[channels][frames]
        b.position(data + 8)
        for (int i = 0; i < frames; i++) for (int c = 0; c < channels; c++) samples[c][i] = b.getShort()
        new Wav(channels: channels, sampleRate: rate, bits: 16, samples: samples)
    }

    /** What a capture holds now, copied at once: the decoding thread logs while the test reads. */
    static List<ch.qos.logback.classic.spi.ILoggingEvent> events(LogCapture capture) {
        capture.appender.list.toArray() as List
    }

    boolean plays(double freq, double within) {
        Net.await(within) { Math.abs(playing() - freq) < 5 }
    }

    def "input.http plays an icecast2 mount with its ICY titles, survives a server restart, and logs the outage once"() {
        given:
        def remoteLog = new LogCapture('org.groovecast.ffmpeg.remote.RemoteFeed', Level.INFO)
        def scriptLog = new LogCapture('script.relay', Level.INFO)
        closing << remoteLog << scriptLog
        icecast = new Icecast().start()
        feed(440)
        title('First Artist - First Song')
        relay("input.http('http://127.0.0.1:${icecast.port}/m', timeout: 3, buffer: 1)")

        expect: 'the remote tone plays, and its title arrives as artist and title'
        plays(440, 15)
        Net.await(10) { scriptLog.messages().any { it == 'remote metadata: artist=First Artist title=First Song' } }

        when: 'the title changes at the source'
        title('Second Artist - Second Song')

        then: 'the new title arrives while it plays'
        Net.await(10) { scriptLog.messages().any { it == 'remote metadata: artist=Second Artist title=Second Song' } }
        def tags = scriptLog.messages().findAll { it.startsWith('remote tags') }
        println tags.join('\n')

        and: 'each title came once, and the stream tags (the ICY headers, as FFmpeg reports them) with the first'
        tags.count { it.contains('title:Second Song') } == 1
        tags.first().contains('icy-name:Remote FM')

        when: 'icecast2 is stopped: the fallback takes over'
        processes*.destroyForcibly()
        icecast.stop()
        boolean fellBack = plays(660, 10)

        and: 'a new icecast2 on the same port, fed again'
        Thread.sleep(2000)
        icecast = new Icecast(icecast.port).start()
        feed(440)
        long fedAt = System.nanoTime()
        boolean back = plays(440, 30)
        double backAfter = (System.nanoTime() - fedAt) / 1e9
        println "input.http: back ${backAfter.round(1)} s after the mount returned"

        then: 'the relay plays again, within the backoff'
        fellBack
        back
        def lines = remoteLog.messages()
        println lines.join('\n')
        'the outage was logged once, with its reason and the retry delay, and its end once'
        lines.count { it ==~ /input\.http http:\/\/127\.0\.0\.1:\d+\/m: .*; retrying in \d+\.\d s/ } == 1
        Net.await(10) { remoteLog.messages().count { it ==~ /input\.http .*: back after \d+\.\d s/ } == 1 }

        and: 'the clock never stopped'
        station.clocks().every { it.getLag() < 0.5 }
    }

    def "a reload that declares the same input.http keeps its connection and buffer: the relay plays on without the backup"() {
        given:
        def remoteLog = new LogCapture('org.groovecast.ffmpeg.remote.PullInput', Level.INFO)
        closing << remoteLog
        icecast = new Icecast().start()
        feed(440)
        Path script = dir.resolve('relay.groovy')
        def text = { int backup -> """
            def remote = input.http('http://127.0.0.1:${icecast.port}/m', buffer: 1)
            output.file(wav(), '${dir}/out.wav', fallback(trackSensitive: false, remote, sine(${backup}, amplitude: 0.3)))
        """.stripIndent() }
        java.nio.file.Files.writeString(script, text(660))
        def reloader = new org.groovecast.host.StationReloader(script, Engine.plugins().functions(), [:])
        closing << ({ reloader.stop() } as Closeable)
        reloader.start()
        assert plays(440, 15)
        Thread.sleep(1000)

        when: 'the backup tone changes: the script is reloaded'
        java.nio.file.Files.writeString(script, text(550))
        java.nio.file.Files.copy(dir.resolve('out.wav'), dir.resolve('snapshot.wav'), java.nio.file.StandardCopyOption.REPLACE_EXISTING)
        double reloadAt = unfinished(dir.resolve('snapshot.wav')).seconds
        boolean reloaded = reloader.reload()
        def report = reloader.lastReload()
        Thread.sleep(4000)
        reloader.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))
        List<Double> around = (0..<20).collect { int i -> w.frequency(reloadAt - 1 + i * 0.25, reloadAt - 0.75 + i * 0.25) }
        println "reload at ${reloadAt.round(2)} s of ${w.seconds.round(2)}: ${around*.round(0)}"

        then: 'the input was carried over, said so, and the remote tone went on through the reload'
        reloaded
        report.carried().any { it.startsWith('input.http http://127.0.0.1:') }
        remoteLog.messages().any { it.endsWith(': kept across the reload') }
        around.every { Math.abs(it - 440) < 10 }
    }

    def "a stalled server is found out within timeout, the fallback plays meanwhile, and the relay comes back when it goes on"() {
        given:
        def remoteLog = new LogCapture('org.groovecast.ffmpeg.remote.RemoteFeed', Level.INFO)
        def scriptLog = new LogCapture('script.relay', Level.INFO)
        closing << remoteLog << scriptLog
        icecast = new Icecast().start()
        feed(440)
        relay("input.http('http://127.0.0.1:${icecast.port}/m', timeout: 2, buffer: 0.5)")
        assert plays(440, 15)

        when: 'icecast2 freezes (SIGSTOP): the connection stays open, nothing comes'
        icecast.pause()
        long t0 = System.nanoTime()
        boolean found = Net.await(15) { remoteLog.messages().any { it.contains('no data for 2 s') } }
        double foundAfter = (System.nanoTime() - t0) / 1e9
        boolean fellBack = plays(660, 5)
        println "stall found after ${foundAfter.round(1)} s"

        then: 'found out after about the timeout (plus what was buffered), logged, and the fallback on air'
        found
        Net.await(5) { scriptLog.messages().contains('remote not connected') }
        foundAfter < 2 + 0.5 + 4
        fellBack

        when: 'the server goes on'
        icecast.resume()

        then: 'the relay plays the remote again'
        plays(440, 40)
        station.clocks().every { it.getLag() < 0.5 }
    }

    def "a server that sends garbage, then half an answer and stops, is logged and retried; the station stays on air"() {
        given: 'a TCP server answering like Icecast, then random bytes; later one that sends headers and a little MP3, then nothing'
        def remoteLog = new LogCapture('org.groovecast.ffmpeg.remote.RemoteFeed', Level.DEBUG)
        closing << remoteLog
        def fake = new FakeServer(dir)
        closing << fake
        relay("input.ffmpeg('http://127.0.0.1:${fake.port}/m', timeout: 2, buffer: 0.5)")

        expect: 'the garbage is logged once (later attempts at debug level), retried, and the fallback plays'
        Net.await(15) { fake.connections >= 3 }
        plays(660, 5)
        events(remoteLog).count { it.level == Level.WARN && it.formattedMessage.contains('retrying in') } == 1
        events(remoteLog).count { it.level == Level.DEBUG && it.formattedMessage.contains('retrying in') } >= 1
        station.clocks().every { it.getLag() < 0.5 }

        when: 'the server answers with a real stream for a moment, then holds the connection and sends nothing'
        fake.mode = 'stall'
        boolean stalled = Net.await(30) { remoteLog.messages().any { it.contains('no data for 2 s') } }

        then: 'the stall is found out (within the same episode: no "back", since a second of audio is no comeback)'
        stalled
        remoteLog.messages().every { !it.contains('back after') }
        plays(660, 5)
        station.clocks().every { it.getLag() < 0.5 }
    }

    def "input.http plays a live HLS playlist that ffmpeg keeps writing, served over HTTP"() {
        given: 'ffmpeg writing a live HLS stream of 440 Hz (1 s segments) into a directory a small HTTP server serves'
        Path hls = dir.resolve('hls')
        java.nio.file.Files.createDirectories(hls)
        Process writer = new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i',
                'sine=frequency=440:sample_rate=44100', '-c:a', 'aac', '-b:a', '96k', '-f', 'hls', '-hls_time', '1',
                '-hls_list_size', '6', '-hls_flags', 'delete_segments', hls.resolve('live.m3u8').toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve('hls.txt').toFile()).start()
        processes << writer
        def server = com.sun.net.httpserver.HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        server.createContext('/') { ex ->
            Path f = hls.resolve(ex.requestURI.path.substring(1))
            byte[] body = java.nio.file.Files.exists(f) ? java.nio.file.Files.readAllBytes(f) : null
            ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length)
            if (body != null) ex.responseBody.withCloseable { it.write(body) }
            ex.close()
        }
        server.start()
        closing << ({ server.stop(0) } as Closeable)
        assert Net.await(10) { java.nio.file.Files.exists(hls.resolve('live.m3u8')) }
        Thread.sleep(2500) // a few segments listed

        when:
        relay("input.http('http://127.0.0.1:${server.address.port}/live.m3u8', buffer: 1)")

        then: 'the station plays the remote tone'
        plays(440, 20)
        station.clocks().every { it.getLag() < 0.5 }
    }

    def "arguments are checked when the script loads"() {
        when:
        Engine.load('bad.groovy', "output.dummy(mksafe(${call}))", [:])

        then:
        def e = thrown(Exception)
        e.message.contains(message)

        where:
        call                                                  | message
        "input.http('ftp://x/y')"                             | 'input.http(): url must be http:// or https://, got "ftp://x/y"'
        "input.http('http://x/y', buffer: 5, max: 3)"         | 'input.http(): max (3.0 s) must be more than buffer (5.0 s)'
        "input.http('http://x/y', timeout: 0)"                | 'input.http(): timeout must be positive'
        "input.ffmpeg('srt://x:1', format: 'nosuchformat')"   | "input.ffmpeg(): unknown format 'nosuchformat'"
    }

    /** A misbehaving HTTP server: garbage after Icecast-like headers, or a little real MP3 and then silence on an open socket. */
    static final class FakeServer implements Closeable {
        final ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName('127.0.0.1'))
        final byte[] mp3
        volatile String mode = 'garbage'
        volatile int connections
        final List<Socket> held = Collections.synchronizedList([])

        FakeServer(Path dir) {
            Path f = dir.resolve('tone.mp3')
            Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
                       '-c:a', 'libmp3lame', '-b:a', '128k', f.toString()])
            mp3 = java.nio.file.Files.readAllBytes(f)
            Thread.startVirtualThread {
                while (!server.closed) {
                    try {
                        Socket s = server.accept()
                        connections++
                        Thread.startVirtualThread { serve(s) }
                    } catch (IOException ignored) {
                    }
                }
            }
        }

        int getPort() { server.localPort }

        private void serve(Socket s) {
            try {
                s.soTimeout = 5000
                def r = new BufferedReader(new InputStreamReader(s.inputStream, 'ISO-8859-1'))
                String line
                while ((line = r.readLine()) != null && !line.isEmpty()) { }
                def out = s.outputStream
                out.write('HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-name: fake\r\n\r\n'.getBytes('ISO-8859-1'))
                if (mode == 'garbage') {
                    def rnd = new Random(1)
                    byte[] junk = new byte[256 * 1024]
                    rnd.nextBytes(junk)
                    out.write(junk)
                    out.flush()
                    s.close()
                } else {
                    out.write(mp3, 0, Math.min(mp3.length, 16 * 1024)) // about a second, then nothing, connection kept
                    out.flush()
                    held << s
                }
            } catch (IOException ignored) {
                s.close()
            }
        }

        @Override
        void close() {
            server.close()
            held.each { it.close() }
        }
    }
}
