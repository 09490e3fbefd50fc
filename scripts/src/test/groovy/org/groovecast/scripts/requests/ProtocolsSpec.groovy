package org.groovecast.scripts.requests

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import com.sun.net.httpserver.HttpServer
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.Executors
import org.groovecast.host.Station
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Request protocols: protocol.add (plain and timeout forms, several answers), nesting with annotate:, the built-in
 * http(s)://, tmp: and file:, what a failed resolution does, request.dynamic's retryDelay and timeout.
 */
@Tag("integration")
class ProtocolsSpec extends Specification {
    @TempDir
    Path dir

    Station station
    HttpServer http
    List<Closeable> appenders = []

    def cleanup() {
        station?.stop()
        http?.stop(0)
        appenders*.close()
    }

    static double f(Wav w, double from, double to) { Math.round(w.frequency(from, to) / 10) * 10 }

    /** The warnings of the logger of {@code className}, as they come. */
    List<String> warnings(String className) {
        ListAppender<ILoggingEvent> logs = new LogList()
        Logger logger = (Logger) LoggerFactory.getLogger(className)
        logger.addAppender(logs)
        logs.start()
        appenders << ({ -> logger.detachAppender(logs) } as Closeable)
        new AbstractList<String>() {
            String get(int i) { synchronized (logs.list) { logs.list[i].formattedMessage } }
            int size() { synchronized (logs.list) { logs.list.size() } }
        }
    }

    Station live(String script) {
        station = Engine.load('protocols.groovy', script.replace('DIR', dir.toString()))
        station.start(null)
        station
    }

    def "protocol.add resolves playlist lines, queue pushes and request.dynamic answers, inside annotate: (title, cue-in, #EXTINF)"() {
        given: 'a media directory the script knows by a protocol, and an m3u naming its file through it'
        Path music = dir.resolve('music')
        Files.createDirectories(music)
        Files.copy(Media.mp3('proto-three.mp3', [440, 660, 880], 1, 'Tag title'), music.resolve('three.mp3'))
        Path m3u = dir.resolve('list.m3u')
        Files.writeString(m3u, '#EXTM3U\n#EXTINF:3,Ext Artist - Ext Title\nannotate:title="From the list",liq_cue_in="1":media:three.mp3\n')

        when:
        Station st = Engine.render('nested.groovy', """
            protocol.add('media') { arg -> '${music}/' + arg }
            def p = playlist('${m3u}', mode: 'normal')
            def q = request.queue()
            q.push('annotate:title="Pushed",liq_cue_in="2":media:three.mp3')
            def d = request.dynamic { -> 'annotate:title="Asked for":media:three.mp3' }
            [p, q, d].each { s -> s.onTrack { m -> log.info("track \${m.title} / \${m.artist} / \${m.filename}") } }
            output.file(wav(), '${dir.resolve('out.wav')}', mksafe(sequence(p, q, d)))
        """, 6)
        Wav w = Wav.read(dir.resolve('out.wav'))
        def tracks = st.scriptLog().recent().findAll { it.startsWith('info: track') }

        then: 'the playlist line from its cue-in (660, 880), the pushed one from 2 s (880), then the dynamic one whole'
        [f(w, 0.15, 0.85), f(w, 1.15, 1.85), f(w, 2.15, 2.85), f(w, 3.15, 3.85), f(w, 4.15, 4.85), f(w, 5.15, 5.85)] ==
                [660, 880, 880, 440, 660, 880]

        and: 'annotate: titles over the #EXTINF and the tags, the #EXTINF artist over the tag, the file from the protocol'
        tracks.take(3) == ["info: track From the list / Ext Artist / ${music}/three.mp3",
                           "info: track Pushed / Groovecast Tests / ${music}/three.mp3",
                           "info: track Asked for / Groovecast Tests / ${music}/three.mp3"]*.toString()
    }

    def "the timeout form is given the seconds left and may answer several uris: the first that plays wins"() {
        given:
        Path good = Media.mp3('proto-good.mp3', [660], 2)
        Path empty = Files.createFile(dir.resolve('empty.mp3'))

        when:
        Station st = Engine.render('several.groovy', """
            settings.request.timeout = 7
            protocol.add('pick') { arg, timeout ->
                log.info("asked for \${arg} with \${timeout > 6 && timeout <= 7 ? 'the seconds left' : timeout}")
                ['${dir}/missing.mp3', '${empty}', '${good}']
            }
            def s = single('pick:x')
            s.onTrack { m -> log.info("playing \${m.filename}") }
            output.file(wav(), '${dir.resolve('out.wav')}', s)
        """, 1.5)

        then:
        f(Wav.read(dir.resolve('out.wav')), 0.2, 1.3) == 660
        st.scriptLog().recent().contains('info: asked for x with the seconds left')
        st.scriptLog().recent().contains("info: playing ${good}".toString())
    }

    def "failed resolutions are logged once with their uri and skipped; a hung resolver is abandoned; the station stays on air"() {
        given:
        Path good = Media.mp3('proto-after-failures.mp3', [440], 1)
        int closed = Net.freePort()
        def warned = warnings('org.groovecast.ffmpeg.playlist.RequestSource')

        when: 'a playlist of bad requests and one good file plays in real time'
        live("""
            settings.request.timeout = 0.5
            protocol.add('throws') { arg -> throw new IllegalStateException('the catalogue is down') }
            protocol.add('hangs') { arg -> Thread.sleep(60_000); '/never.mp3' }
            protocol.add('nothing') { arg -> null }
            def p = playlist(['throws:a', 'hangs:b', 'nosuch:c', 'nothing:d', '${good}'], mode: 'normal')
            p.onTrack { m -> log.info('good track') }
            output.file(wav(), 'DIR/out.wav', mksafe(p))
            // The HTTP client's first use (its TLS set-up) alone may take longer than 0.5 s on a loaded machine.
            def remote = request.queue(id: 'remote', timeout: 10, queue: ['http://127.0.0.1:${closed}/e.mp3'])
            output.dummy(mksafe(remote))
        """)
        Thread.sleep(5000)
        double lag = station.clocks()*.getLag().max()
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))
        def lines = warned.toList()

        then: 'on air all along, the good file played again after each round of failures'
        w.seconds > 4.5
        station.scriptLog().recent().count { it == 'info: good track' } >= 3
        f(w, 0.2, 0.8) == 440

        and: 'the clocks never waited for them'
        lag < 0.2

        and: 'each failure once, with its uri and why'
        lines.count { it.contains('throws:a: skipped: protocol throws failed at protocols.groovy:3: the catalogue is down') } == 1
        lines.count { it.contains('hangs:b: skipped: protocol hangs did not answer within 0.50 s; abandoned') } == 1
        lines.count { it.contains('nosuch:c: skipped: nosuch:c: no such file, and nosuch: is no known protocol') } == 1
        lines.count { it.contains('nothing:d: skipped: protocol nothing found nothing for d') } == 1
        lines.count { it.startsWith("remote: http://127.0.0.1:${closed}/e.mp3: skipped: http://127.0.0.1:${closed}/e.mp3: cannot connect") } == 1
    }

    def "a resolver hung within its timeout does not hold up the station's stop"() {
        given: 'a protocol that hangs, well within the default 30 s timeout, and a dynamic source that does too'
        live("""
            protocol.add('hangs') { arg -> Thread.sleep(60_000); '/never.mp3' }
            output.dummy(mksafe(request.queue(queue: ['hangs:a'])))
            output.dummy(mksafe(request.dynamic { -> Thread.sleep(60_000); '/never.mp3' }))
            thread.run(delay: 0.3) { -> log.info('waiting') }
        """)
        assert Net.await(5) { station.scriptLog().recent().contains('info: waiting') }
        Thread.sleep(300)

        when:
        long t0 = System.nanoTime()
        station.stop()
        double took = (System.nanoTime() - t0) / 1e9

        then: 'the resolutions are abandoned at once, not waited for'
        took < 3
    }

    /** An HTTP server in the test: {@code files} by path. */
    int serve(Map<String, byte[]> files) {
        http = HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        http.executor = Executors.newVirtualThreadPerTaskExecutor()
        files.each { path, bytes ->
            http.createContext(path) { exchange ->
                exchange.sendResponseHeaders(200, bytes.length)
                exchange.responseBody.withCloseable { it.write(bytes) }
            }
        }
        http.start()
        http.address.port
    }

    /** Whether some 0.6 s of {@code w} (stepping by 0.1 s) is a tone of {@code hz}. */
    static boolean heard(Wav w, double hz) {
        (0..((int) ((w.seconds - 0.6) * 10))).any { int i -> Math.abs(w.frequency(i / 10d, i / 10d + 0.6) - hz) < 5 }
    }

    def "http:// is downloaded to a temporary file deleted once played, one over maxDownload is skipped; tmp: files go too"() {
        given:
        byte[] song = Files.readAllBytes(Media.mp3('proto-remote.mp3', [660], 2, 'Remote tag'))
        byte[] big = Files.readAllBytes(Media.mp3('proto-big.mp3', [880], 4))
        int port = serve(['/song.mp3': song, '/big.mp3': big])
        Path tmp = Files.copy(Media.mp3('proto-tmp.mp3', [440], 1), dir.resolve('made-for-once.mp3'))
        def warned = warnings('org.groovecast.ffmpeg.playlist.RequestSource')

        when:
        live("""
            settings.request.maxDownload = ${song.length + 1000}
            def q = request.queue(id: 'remote', queue: ['http://127.0.0.1:${port}/big.mp3',
                    'annotate:title="Downloaded":http://127.0.0.1:${port}/song.mp3', 'tmp:${tmp}'])
            q.onTrack { m -> log.info("track \${m.title} \${m.filename}") }
            output.file(wav(), 'DIR/out.wav', mksafe(q))
        """)
        assert Net.await(5) { station.scriptLog().recent().any { it.startsWith('info: track Downloaded ') } }
        Path downloaded = Path.of(station.scriptLog().recent().find { it.startsWith('info: track Downloaded ') }.split(' ').last())
        boolean existedWhilePlaying = Files.exists(downloaded)

        then: 'the download plays from a temporary file, gone once its track ended; the tmp: file too, once played'
        existedWhilePlaying
        downloaded.startsWith(Path.of(System.getProperty('java.io.tmpdir'))) && downloaded.fileName.toString().endsWith('.mp3')
        Net.await(5) { !Files.exists(downloaded) }
        Net.await(5) { station.scriptLog().recent().any { it.endsWith(" ${tmp}") } }
        Net.await(3) { !Files.exists(tmp) }

        and: 'the one over the limit was skipped with why'
        warned.toList().count { it.contains("http://127.0.0.1:${port}/big.mp3: skipped:") && it.contains('over settings.request.maxDownload') } == 1

        when:
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the downloaded tone, then the tmp: one'
        heard(w, 660)
        heard(w, 440)
    }

    def "request.dynamic: a function that answers null is asked again no sooner than retryDelay; one that hangs past timeout is abandoned"() {
        given:
        def warned = warnings('org.groovecast.ffmpeg.playlist.DynamicRequests')
        Path song = Media.mp3('proto-dyn.mp3', [440], 1)

        when:
        live("""
            def asked = Collections.synchronizedList([])
            def hung = Collections.synchronizedList([])
            def idle = request.dynamic(id: 'idle', retryDelay: 0.5) { -> asked << System.nanoTime(); null }
            def stuck = request.dynamic(id: 'stuck', timeout: 0.3, retryDelay: 0.2) { -> hung << System.nanoTime(); Thread.sleep(10_000); '${song}' }
            def fine = request.dynamic(id: 'fine') { -> '${song}' }
            fine.onTrack { m -> log.info('fine track') }
            output.dummy(mksafe(idle))
            output.dummy(mksafe(stuck))
            output.dummy(mksafe(fine))
            server.register('calls') { arg -> "\${asked.size()} \${hung.size()} " +
                    ((1..<Math.max(1, asked.size())).collect { ((asked[it] as long) - (asked[it - 1] as long)) / 1e9 }.min() ?: 9) }
        """)
        Thread.sleep(3200)
        def (int asked, int hung, double minGap) = station.commands().run('calls').text().split(' ').with {
            [it[0] as int, it[1] as int, it[2] as double]
        }
        double lag = station.clocks()*.getLag().max()

        then: 'null: asked about every half second, never sooner'
        asked >= 5 && asked <= 8
        minGap >= 0.5

        and: 'hung: abandoned after 0.3 s, asked again 0.2 s later, logged once'
        hung >= 4
        warned.toList().count { it == 'stuck: the function did not answer within 0.3 s; abandoned; asking again in 0.2 s' } == 1
        warned.toList().count { it.startsWith('stuck:') } == 1

        and: 'the others played on, the clocks never waited'
        station.scriptLog().recent().count { it == 'info: fine track' } >= 2
        lag < 0.2
    }

    def "protocols are the station's: another station without protocol.add does not know it"() {
        given:
        Path a = Media.mp3('proto-own.mp3', [440], 1)

        when:
        Engine.load('with.groovy', "protocol.add('media') { arg -> '${a.parent}/' + arg }\noutput.dummy(single('media:${a.fileName}'))\n").stop()
        Engine.load('without.groovy', "output.dummy(single('media:${a.fileName}'))\n")

        then:
        ScriptError e = thrown()
        e.message == "without.groovy:1: single(): cannot play media:${a.fileName}: media:${a.fileName}: no such file, and media: is no known protocol".toString()
    }

    def "protocol.add checks its name and its function's arguments where the script says so"() {
        when:
        Engine.load('bad-protocol.groovy', "output.dummy(sine())\nprotocol.add('${name}') ${fn}\n")

        then:
        ScriptError e = thrown()
        e.message == "bad-protocol.groovy:2: ${message}".toString()

        where:
        name     | fn                         | message
        'a b'    | '{ arg -> arg }'           | "protocol.add(): a protocol name is letters, digits, '+', '.', '_' and '-', starting with a letter; got 'a b'"
        'media'  | '{ a, b, c -> a }'         | 'protocol.add(): the resolver takes (arg) or (arg, timeout), not 3 arguments'
    }
}
