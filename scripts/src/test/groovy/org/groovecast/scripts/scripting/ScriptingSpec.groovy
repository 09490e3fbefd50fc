package org.groovecast.scripts.scripting

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import com.sun.net.httpserver.HttpServer
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.time.ZoneId
import java.time.ZonedDateTime
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import org.groovecast.api.Source
import org.groovecast.host.Station
import org.groovecast.host.script.ClosureFunction
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** Scripting utilities with the real plugins: http off the clock, include, settings.time.zone, settings.harbor.bind. */
@Tag("integration")
class ScriptingSpec extends Specification {
    @TempDir
    Path dir

    Station station

    def cleanup() {
        station?.stop()
    }

    def "http.post in an onTrack callback is refused with its line, logged, and the station plays on"() {
        given:
        HttpServer server = HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        AtomicInteger requests = new AtomicInteger()
        server.createContext('/') { ex -> requests.incrementAndGet(); ex.sendResponseHeaders(204, -1); ex.close() }
        server.start()
        ListAppender<ILoggingEvent> logs = new LogList()
        Logger logger = (Logger) LoggerFactory.getLogger(Source)
        logger.addAppender(logs)
        logs.start()

        when: 'tracks of 0.5 s in real time, each start calling the API from the clock'
        station = Engine.load('radio.groovy', """
            def music = sine(440, amplitude: 0.3).tracks(duration: 0.5, id: 'music')
            music.onTrack { m ->
                http.post('http://127.0.0.1:${server.address.port}/feedback', data: '{}')
            }
            output.dummy(music, id: 'radio')
        """)
        station.start(null)
        Thread.sleep(2500)
        long ticks = station.clocks()[0].ticks
        def refused = logs.list*.formattedMessage

        then: 'the clock kept time all along (125 frames of 20 ms in 2.5 s)'
        ticks > 110

        and: 'the call was refused at its line, logged (once for the five tracks: at most every 5 s), and never sent'
        refused == ["music: a callback failed, the stream goes on: radio.groovy:4: http.post() would block the clock radio; "
                + "call it inside thread.run(fast: false) { ... }"]
        requests.get() == 0

        cleanup:
        logger.detachAppender(logs)
        server.stop(0)
    }

    def "http.get in a metadata.map function is refused on the clock: the metadata passes unchanged and the station plays on"() {
        given:
        Path mp3 = Media.mp3('mapped.mp3', [440], 0.5, 'Original')
        HttpServer server = HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        AtomicInteger requests = new AtomicInteger()
        server.createContext('/') { ex -> requests.incrementAndGet(); ex.sendResponseHeaders(204, -1); ex.close() }
        server.start()
        ListAppender<ILoggingEvent> logs = new LogList()
        Logger logger = (Logger) LoggerFactory.getLogger(ClosureFunction)
        logger.addAppender(logs)
        logs.start()

        when: 'a 0.5 s file looped in real time, the metadata of each track mapped through an HTTP call'
        station = Engine.load('radio.groovy', """
            def music = metadata.map(single('${mp3}', id: 'music')) { m ->
                [title: http.get('http://127.0.0.1:${server.address.port}/title').body]
            }
            music.onMetadata { m -> log.info("title \${m.title}") }
            output.dummy(music, id: 'radio')
        """)
        station.start(null)
        Thread.sleep(2500)
        long ticks = station.clocks()[0].ticks
        def refused = logs.list*.formattedMessage

        then: 'the clock kept time, every track kept its own title, the call was logged once and never sent'
        ticks > 110
        station.scriptLog().recent().size() >= 3
        station.scriptLog().recent().every { it == 'info: title Original' }
        refused.size() == 1
        refused[0] == ('a script function failed, the station goes on: radio.groovy:3: http.get() would block '
                + 'the clock radio; call it inside thread.run(fast: false) { ... }')
        requests.get() == 0

        cleanup:
        logger.detachAppender(logs)
        server.stop(0)
    }

    def "request.dynamic asks an HTTP API for each next track, on the blocking pool"() {
        given: 'a "next song" API answering JSON with the file to play, 660 Hz'
        Path song = Media.mp3('next-song.mp3', [660], 1)
        HttpServer server = HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        LinkedBlockingQueue<String> asked = new LinkedBlockingQueue<>()
        server.createContext('/nextsong') { ex ->
            asked.add(ex.requestMethod + ' ' + new String(ex.requestBody.readAllBytes(), StandardCharsets.UTF_8))
            byte[] b = """{"uri": "${song}", "title": "From the API"}""".getBytes(StandardCharsets.UTF_8)
            ex.responseHeaders.add('Content-Type', 'application/json')
            ex.sendResponseHeaders(200, b.length)
            ex.responseBody.write(b)
            ex.close()
        }
        server.start()
        Path out = dir.resolve('out.wav')

        when: 'a real-time station whose only music comes from the API'
        station = Engine.load('radio.groovy', """
            def next = request.dynamic { ->
                def r = http.post('http://127.0.0.1:${server.address.port}/nextsong', data: json.stringify([station: 'test'], compact: true),
                        headers: ['Content-Type': 'application/json'], timeout: 2)
                (json.parse(r) as Map).uri
            }
            output.file(wav(), '${out}', mksafe(next))
        """)
        station.start(null)
        Thread.sleep(3000)
        station.stop()
        station = null

        then: 'the API was asked, and what it named is on air'
        asked.poll(1, TimeUnit.SECONDS) == 'POST {"station":"test"}'
        Math.abs(Wav.read(out).frequency(1.1, 1.9) - 660) < 5

        cleanup:
        server.stop(0)
    }

    def "an offline render has no deadline to miss: there a clock's callback may call out"() {
        given:
        HttpServer server = HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        AtomicInteger requests = new AtomicInteger()
        server.createContext('/') { ex -> requests.incrementAndGet(); ex.sendResponseHeaders(204, -1); ex.close() }
        server.start()

        when:
        Station st = Engine.render('radio.groovy', """
            def music = sine(440, amplitude: 0.3).tracks(duration: 1)
            music.onTrack { m -> log.info("\${http.post('http://127.0.0.1:${server.address.port}/feedback').status}") }
            output.file(wav(), '${dir.resolve('out.wav')}', music)
        """, 3)

        then:
        st.scriptLog().recent() == ['info: 204'] * 3
        requests.get() == 3
        Math.abs(Wav.read(dir.resolve('out.wav')).seconds - 3) < 0.05

        cleanup:
        server.stop(0)
    }

    def "the same call inside thread.run(fast: false) reaches the API"() {
        given:
        HttpServer server = HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        LinkedBlockingQueue<String> bodies = new LinkedBlockingQueue<>()
        server.createContext('/') { ex ->
            bodies.add(new String(ex.requestBody.readAllBytes(), StandardCharsets.UTF_8))
            ex.sendResponseHeaders(204, -1)
            ex.close()
        }
        server.start()

        when:
        station = Engine.load('radio.groovy', """
            def music = sine(440, amplitude: 0.3).tracks(duration: 0.5)
            music.onTrack { m ->
                thread.run(fast: false) { -> http.post('http://127.0.0.1:${server.address.port}/feedback', data: json.stringify([n: 1], compact: true)) }
            }
            output.dummy(music)
        """)
        station.start(null)

        then: 'every track start posts, from the blocking pool'
        bodies.poll(5, TimeUnit.SECONDS) == '{"n":1}'
        bodies.poll(5, TimeUnit.SECONDS) == '{"n":1}'

        cleanup:
        server.stop(0)
    }

    Station render(String script, double seconds, Map<String, String> settings = [:]) {
        Engine.render('t.groovy', script.replace('OUT', dir.resolve('out.wav').toString()), seconds, settings)
    }

    def "settings.time.zone sets where a time.between window falls"() {
        when: '21:30 UTC is 22:30 in Paris in January: night there, not yet in London'
        render("""
            settings.time.zone = '${zone}'
            def night = sine(440, amplitude: 0.5)
            def day = sine(880, amplitude: 0.5)
            output.file(wav(), 'OUT', switchOn([[time.between('22h', '6h'), night], [true, day]]), fallible: true)
        """, 1, ['clock.startTime': '2025-01-06T21:30:00Z'])

        then:
        Math.abs(Wav.read(dir.resolve('out.wav')).frequency(0.1, 0.9) - freq) < 3

        where:
        zone            | freq
        'Europe/Paris'  | 440
        'Europe/London' | 880
    }

    def "a real-time clock reads the wall clock in settings.time.zone"() {
        given: 'a window of the next two hours in UTC+14, which the system zone is not (unless the machine runs on Kiritimati time)'
        ZoneId zone = ZoneId.of('Pacific/Kiritimati')
        int h = ZonedDateTime.now(zone).hour
        Path out = dir.resolve('out.wav')

        when:
        station = Engine.load('t.groovy', """
            settings.time.zone = '${zone}'
            def night = sine(440, amplitude: 0.5)
            def day = sine(880, amplitude: 0.5)
            output.file(wav(), '${out}', switchOn([[time.between('${h}h', '${(h + 2) % 24}h'), night], [true, day]]), fallible: true)
        """)
        station.start(null)
        Thread.sleep(1500)
        station.stop()
        station = null

        then:
        Math.abs(Wav.read(out).frequency(0.2, 1.0) - 440) < 3
    }

    def "--set time.zone does the same, and a zone that does not exist is a script error"() {
        when:
        render("""
            output.file(wav(), 'OUT', switchOn([[time.between('22h', '6h'), sine(440, amplitude: 0.5)], [true, sine(880, amplitude: 0.5)]]), fallible: true)
        """, 1, ['clock.startTime': '2025-01-06T21:30:00Z', 'time.zone': 'Europe/Paris'])

        then:
        Math.abs(Wav.read(dir.resolve('out.wav')).frequency(0.1, 0.9) - 440) < 3

        when:
        Engine.load('t.groovy', "settings.time.zone = 'Mars/Olympus'\noutput.dummy(sine())")

        then:
        ScriptError e = thrown()
        e.message == "t.groovy:1: settings.time.zone expects a time zone such as Europe/Paris, UTC or +02:00, got 'Mars/Olympus'"
    }

    def "output.file expands its strftime path in settings.time.zone"() {
        given: 'UTC+14: its hour is never the system zone\'s (unless the machine runs on Kiritimati time)'
        ZoneId zone = ZoneId.of('Pacific/Kiritimati')
        int before = ZonedDateTime.now(zone).hour

        when:
        render("""
            settings.time.zone = '${zone}'
            output.file(wav(), '${dir}/rec-%H.wav', sine(440))
        """, 0.5)
        int after = ZonedDateTime.now(zone).hour
        def names = Files.list(dir).withCloseable { it.map { it.fileName.toString() }.toList() }

        then:
        names.size() == 1
        names[0] in [String.format('rec-%02d.wav', before), String.format('rec-%02d.wav', after)]
    }

    def "settings.harbor.bind set in the script is where the harbor listens"() {
        given:
        int port = Net.freePort()

        when:
        station = Engine.load('radio.groovy', """
            settings.harbor.bind = '127.0.0.2'
            output.harbor(mp3(), sine(440, amplitude: 0.3), mount: 'radio', port: ${port})
        """)
        station.start(null)
        String answer = new Socket().withCloseable { s ->
            s.connect(new InetSocketAddress('127.0.0.2', port), 3000)
            s.soTimeout = 3000
            s.outputStream.write('GET /radio HTTP/1.0\r\n\r\n'.getBytes(StandardCharsets.ISO_8859_1))
            new BufferedReader(new InputStreamReader(s.inputStream, StandardCharsets.ISO_8859_1)).readLine()
        }

        then:
        answer.startsWith('HTTP/1.') && answer.contains(' 200')

        when: 'the default, 0.0.0.0, would take this one too'
        new Socket().withCloseable { it.connect(new InetSocketAddress('127.0.0.1', port), 3000) }

        then:
        thrown(ConnectException)
    }

    def "groovecast check checks the files a script includes, at their own lines"() {
        given:
        Files.createDirectories(dir.resolve('lib'))
        Files.writeString(dir.resolve('lib/common.groovy'), "def music() { sine(440) }\n\ndef bad() { fallback('music') }\n")
        Path radio = dir.resolve('radio.groovy')
        Files.writeString(radio, "include('lib/common.groovy')\noutput.dummy(music())\n")

        when:
        def r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), radio.toString())

        then:
        r.code == 1
        r.err.trim() == 'lib/common.groovy:3: fallback() expects sources, got String "music"'

        when:
        Files.writeString(dir.resolve('lib/common.groovy'), "def music() { sine(440) }\n")
        r = Engine.cli('check', '--plugins-dir', Engine.PLUGINS.toString(), radio.toString())

        then:
        r.code == 0
        r.out.trim() == 'radio.groovy: OK, 1 output(s)'
    }

    def "run --watch reloads when a file the script includes is saved"() {
        given:
        Files.createDirectories(dir.resolve('lib'))
        Path lib = dir.resolve('lib/tone.groovy')
        Files.writeString(lib, "double freq() { 440 }\n")
        Path radio = dir.resolve('radio.groovy')
        Files.writeString(radio, "include('lib/tone.groovy')\nlog.info(\"playing ${'$'}{freq()} Hz\")\noutput.dummy(sine(freq()))\n")
        String java = Path.of(System.getProperty('java.home'), 'bin', 'java').toString()
        Process engine = new ProcessBuilder(java, '-cp', System.getProperty('java.class.path'), 'org.groovecast.host.cli.Main',
                'run', '--watch', '-l', 'info', '--plugins-dir', Engine.PLUGINS.toAbsolutePath().toString(), radio.toString())
                .redirectErrorStream(true).start()
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>()
        Thread.startDaemon { engine.inputStream.newReader().eachLine { lines.add(it) } }

        expect: 'on air with the library as it was'
        awaitLine(lines, 'playing 440.0 Hz', 60)

        when: 'the library is saved'
        Thread.sleep(500)
        Files.writeString(lib, "double freq() { 660 }\n")

        then: 'the station reloads with it'
        awaitLine(lines, 'playing 660.0 Hz', 30)

        cleanup:
        engine?.destroy()
        engine?.waitFor(20, TimeUnit.SECONDS)
    }

    def "the documented forms check: lufs and normalize readings, a metadata map adding to m, json walked by key and value"() {
        when:
        station = Engine.load('radio.groovy', """
            def m = lufs(sine(440))
            def n = normalize(sine(660))
            log.info("\${m.momentary} \${n.gain}")
            def tagged = metadata.map(sine(440).tracks(duration: 1)) { md -> md + [artist: 'Groovecast'] }
            json.parse('{"a": 1, "b": [2, 3]}').each { k, v -> log.info("\${k}=\${v}") }
            output.dummy(add([m, n, tagged]))
        """)

        then:
        station.scriptLog().recent().drop(1) == ['info: a=1', 'info: b=[2, 3]']
    }

    def "a failing thread.run function is logged once, at its line, and the station plays on; an output made there is refused"() {
        given:
        LogCapture logs = new LogCapture(org.groovecast.host.script.ClosureFunction.name)

        when: 'a function failing every 50 ms, and one making an output once the station runs'
        station = Engine.load('radio.groovy', """
            def music = sine(440)
            thread.run(every: 0.05) { -> def r = json.parse('{}'); log.info(r.items[0].title) }
            thread.run(delay: 0.1) { -> output.dummy(sine(880)) }
            output.dummy(music, id: 'radio')
        """)
        station.start(null)
        Thread.sleep(1000)

        then:
        logs.messages() == [
                "a script function failed, the station goes on: radio.groovy:3: NullPointerException: Cannot invoke method getAt() on null object",
                "a script function failed, the station goes on: radio.groovy:4: output.dummy(): outputs are made when the script loads, not in a callback "
                        + "once the station runs (it would never start); make it at the top level and choose what it plays with fallback() or switchOn()"]
        station.graph().outputs().size() == 1
        station.clocks()[0].ticks > 40

        cleanup:
        logs.close()
    }

    /** Whether a line containing {@code text} comes within {@code seconds}. */
    static boolean awaitLine(LinkedBlockingQueue<String> lines, String text, int seconds) {
        long end = System.nanoTime() + seconds * 1_000_000_000L
        while (System.nanoTime() < end) {
            String l = lines.poll(100, TimeUnit.MILLISECONDS)
            if (l != null && l.contains(text)) return true
        }
        false
    }
}
