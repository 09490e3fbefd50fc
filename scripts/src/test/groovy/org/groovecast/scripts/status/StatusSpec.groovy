package org.groovecast.scripts.status

import com.fasterxml.jackson.databind.ObjectMapper
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.host.StationReloader
import java.time.Instant
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** status.page(): /status-json.xsl against a real icecast2, /api/nowplaying, /api/clocks, the event stream, the buttons. */
@Tag("integration")
class StatusSpec extends Specification {
    static final ObjectMapper JSON = new ObjectMapper()
    static final HttpClient HTTP = HttpClient.newHttpClient()

    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    Icecast icecast
    List<Closeable> listeners = []

    def cleanup() {
        listeners.each { it.close() }
        station?.stop()
        icecast?.kill()
    }

    Station start(String script) {
        station = Engine.load('status.groovy', script.replace('PORT', port.toString()).replace('DIR', dir.toString())
                .replace('ICE', String.valueOf(icecast?.port)), [:])
        station.start(null)
        station
    }

    HttpResponse<String> get(String path, Map<String, String> headers = [:]) {
        def b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:${port}${path}"))
        headers.each { k, v -> b.header(k, v) }
        HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString())
    }

    HttpResponse<String> post(String path, String body, Map<String, String> headers = [:]) {
        def b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:${port}${path}")).POST(HttpRequest.BodyPublishers.ofString(body))
        headers.each { k, v -> b.header(k, v) }
        HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString())
    }

    Map json(String path) {
        def r = get(path)
        assert r.statusCode() == 200: "${path}: ${r.statusCode()} ${r.body()}"
        JSON.readValue(r.body(), Map)
    }

    void listen(int p, String mount) {
        def s = new URL("http://127.0.0.1:${p}${mount}").openStream()
        s.read(new byte[1024])
        listeners << s
    }

    static String basic(String user, String password) {
        'Basic ' + "${user}:${password}".bytes.encodeBase64()
    }

    /** Keys and the JSON type of each value: what a consumer written for Icecast reads. */
    static Map<String, String> shape(Map m) {
        m.findAll { k, v -> k != 'dummy' }.collectEntries { k, v ->
            [k, v instanceof Number ? 'number' : v instanceof String ? 'string' : v instanceof List ? 'list' : v instanceof Map ? 'object' : String.valueOf(v)]
        }
    }

    def "status-json.xsl has the keys and value types of a real icecast2 fed by a libshout client, and output.icecast describes its stream as that client does"() {
        given: 'one tagged MP3: ezstream (libshout) sends it to icecast2 at /ref; the station plays it at its harbor /radio and sends it to icecast2 at /ours'
        icecast = new Icecast().start()
        Path song = Media.tones('status-ref.mp3', [440], 30, 'Song A', ['-c:a', 'libmp3lame', '-b:a', '128k', '-metadata', 'artist=Band'])
        Path conf = dir.resolve('ezstream.xml')
        Files.writeString(dir.resolve('list.m3u'), song.toString() + '\n')
        Files.writeString(conf, """\
            <ezstream>
              <servers><server><hostname>127.0.0.1</hostname><port>${icecast.port}</port><password>${Icecast.SOURCE_PASSWORD}</password></server></servers>
              <streams><stream><mountpoint>/ref</mountpoint><format>MP3</format>
                <stream_name>Test FM</stream_name><stream_url>http://example.org/</stream_url><stream_genre>rock</stream_genre>
                <stream_description>a test</stream_description><stream_bitrate>128</stream_bitrate>
                <stream_samplerate>44100</stream_samplerate><stream_channels>2</stream_channels></stream></streams>
              <intakes><intake><filename>${dir.resolve('list.m3u')}</filename></intake></intakes>
              <metadata><format_str>@a@ - @t@</format_str></metadata>
            </ezstream>""".stripIndent())
        Process ezstream = new ProcessBuilder('ezstream', '-c', conf.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve('ezstream.log').toFile()).start()
        start("""
            def s = mksafe(single('${song}'))
            output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: PORT,
                    name: 'Test FM', description: 'a test', genre: 'rock', url: 'http://example.org/')
            output.icecast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ICE, password: '${Icecast.SOURCE_PASSWORD}',
                    mount: 'ours', name: 'Test FM', description: 'a test', genre: 'rock', url: 'http://example.org/')
            status.page(port: PORT)
        """)
        Closure<Map> mount = { String m -> JSON.readValue(icecast.status() ?: '{}', Map).icestats?.source?.with { it instanceof List ? it : [it] }?.find { it?.listenurl?.endsWith(m) } }
        assert Net.await(10) { mount('/ref')?.title == 'Band - Song A' && mount('/ours')?.title == 'Band - Song A' }
        listen(port, '/radio')
        listen(icecast.port, '/ref')
        assert Net.await(5) { mount('/ref').listeners == 1 } // Icecast counts a listener a moment after it connects

        when:
        Map ours = json('/status-json.xsl').icestats
        Map theirs = JSON.readValue(icecast.status(), Map).icestats

        then: 'the server fields and the source fields match key for key, type for type'
        shape(ours).keySet() == shape(theirs).keySet()
        shape(ours.source) == shape(mount('/ref'))
        ours.source.listenurl == "http://127.0.0.1:${port}/radio".toString()
        ['title', 'server_name', 'server_description', 'genre', 'server_url', 'server_type', 'bitrate', 'channels',
         'samplerate', 'audio_info', 'listeners', 'listener_peak'].every { ours.source[it] == mount('/ref')[it] }
        ours.source.title == 'Band - Song A'
        ours.source.audio_info == 'bitrate=128;samplerate=44100;channels=2'

        and: 'output.icecast presents its stream to icecast2 as ezstream does'
        shape(mount('/ours')).keySet() == shape(mount('/ref')).keySet()
        mount('/ours').audio_info == mount('/ref').audio_info

        and: 'players on other sites may read it'
        get('/status-json.xsl').headers().firstValue('access-control-allow-origin').orElse(null) == '*'

        cleanup:
        ezstream?.destroy()
    }

    def "with two mounts source is a list in path order"() {
        given:
        start('''
            def s = sine(440, amplitude: 0.3)
            output.harbor(mp3(bitrate: 128), s, mount: 'zulu', port: PORT)
            output.harbor(mp3(bitrate: 64), s, mount: 'alpha', port: PORT)
            status.page(port: PORT)
        ''')

        when:
        Map ours = json('/status-json.xsl').icestats

        then:
        ours.source instanceof List
        ours.source*.listenurl == ["http://127.0.0.1:${port}/alpha".toString(), "http://127.0.0.1:${port}/zulu".toString()]
        ours.source*.bitrate == [64, 128]
    }

    def "a clock that cannot keep up says so: since when it is behind and what it skipped, on /api/clocks and in /metrics"() {
        given: '30 ms of work in every 20 ms frame, skipping from 0.2 s behind'
        start('''
            settings.clock.catchUp = 'skip'
            settings.clock.skipLag = 0.2
            settings.clock.warnLag = 0.1
            def tone = sine(440.0, amplitude: 0.1)
            tone.onFrame { -> long until = System.nanoTime() + 30_000_000L; while (System.nanoTime() < until) {} }
            output.dummy(tone, id: 'slow')
            clock.assignNew(id: 'slow', [tone])
            status.page(port: PORT)
            metrics.expose(port: PORT, path: '/metrics')
        ''')
        long before = System.currentTimeMillis()

        expect: 'the clock, behind since its first second, having skipped rather than caught up'
        Net.await(10) {
            def c = json('/api/clocks').clocks.find { it.id == 'slow' }
            c?.behindSince != null && c.skipped > 0.2
        }
        def c = json('/api/clocks').clocks.find { it.id == 'slow' }
        Math.abs(Instant.parse(c.behindSince as String).toEpochMilli() - before) < 3000
        c.lag < 0.3

        and: 'the same in /metrics'
        String text = get('/metrics').body()
        double since = (text =~ /(?m)^groovecast_clock_behind_since_seconds\{[^}]*clock="slow"[^}]*\} (\S+)$/)[0][1] as double
        double skipped = (text =~ /(?m)^groovecast_clock_skipped_seconds_total\{[^}]*clock="slow"[^}]*\} (\S+)$/)[0][1] as double
        Math.abs(since * 1000 - Instant.parse(c.behindSince as String).toEpochMilli()) < 1000
        skipped > 0.2
    }

    def "/api/nowplaying: what each output plays, for how long, what it played; /api/clocks: duty, lag, ticks; both cacheable for a second and CORS-enabled"() {
        given: 'three 4 s songs in order, and a listener'
        Path music = Files.createDirectories(dir.resolve('music'))
        ['One': 440, 'Two': 550, 'Three': 660].each { t, f -> Files.copy(Media.mp3("status-${t}.mp3", [f], 4, t), music.resolve("${t}.mp3")) }
        start('''
            def music = playlist('DIR/music', mode: 'normal')
            output.harbor(mp3(bitrate: 128), mksafe(music), mount: 'radio', port: PORT, id: 'radio')
            status.page(port: PORT)
        ''')
        listen(port, '/radio')

        expect: 'a song playing, with its metadata and what is left of it'
        Net.await(5) { json('/api/nowplaying').outputs[0].nowPlaying?.title != null }
        def first = json('/api/nowplaying').outputs[0]
        first.id == 'radio'
        first.kind == 'output.harbor'
        first.mount == '/radio'
        first.listeners == 1
        first.nowPlaying.artist == 'Groovecast Tests'
        first.nowPlaying.metadata.title == first.nowPlaying.title
        first.nowPlaying.remaining > 0 && first.nowPlaying.remaining <= 4.1
        first.nowPlaying.elapsed >= 0
        first.nowPlaying.startedAt =~ /^\d{4}-\d\d-\d\dT/

        and: 'the next song comes, the first in the history'
        Net.await(8) { json('/api/nowplaying').outputs[0].history.size() >= 1 }
        def later = json('/api/nowplaying').outputs[0]
        later.history[0].title == first.nowPlaying.title
        later.nowPlaying.title != first.nowPlaying.title

        and: 'the clocks'
        def clocks = json('/api/clocks')
        clocks.clocks.size() == 1
        clocks.clocks[0].id == 'radio'
        clocks.clocks[0].ticks > 0
        clocks.clocks[0].duty > 0 && clocks.clocks[0].duty < 1
        clocks.clocks[0].lag >= 0
        clocks.clocks[0].containsKey('behindSince') && clocks.clocks[0].behindSince == null // on time
        clocks.clocks[0].skipped == 0
        clocks.scheduler.threads >= 1

        and:
        ['/api/nowplaying', '/api/clocks'].every {
            def h = get(it).headers()
            h.firstValue('cache-control').orElse(null) == 'max-age=1' && h.firstValue('access-control-allow-origin').orElse(null) == '*'
        }
    }

    def "the page's event stream sends the whole picture with the clocks' traces, then figures twice a second"() {
        given:
        start('''
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT, id: 'radio')
            status.page(port: PORT, path: '/status')
        ''')
        Thread.sleep(1500)

        when:
        def s = new Socket('127.0.0.1', port)
        s.soTimeout = 5000
        s.outputStream.write("GET /status/api/events HTTP/1.1\r\nHost: x\r\n\r\n".bytes)
        def reader = new BufferedReader(new InputStreamReader(s.inputStream, 'UTF-8'))
        List<String> lines = []
        long t0 = System.nanoTime()
        while (lines.count { it.startsWith('data: ') } < 4) lines << reader.readLine()
        double seconds = (System.nanoTime() - t0) / 1e9
        s.close()
        def data = lines.findAll { it.startsWith('data: ') }.collect { JSON.readValue(it.substring(6), Map) }

        then:
        lines[0].startsWith('HTTP/1.1 200')
        lines.any { it.toLowerCase() == 'content-type: text/event-stream; charset=utf-8' }
        lines.contains('event: full')
        data[0].clocks[0].trace.duty.size() >= 1
        data[0].clocks[0].trace.at.size() == data[0].clocks[0].trace.duty.size()
        data[0].outputs[0].mount == '/radio'
        data[0].actions == false
        data[1..3].every { it.clocks[0].trace == null && it.clocks[0].ticks > 0 }
        seconds < 2.5

        and: 'the page is where it was asked for, its folder form'
        get('/status').statusCode() == 301
        get('/status/').body().contains('<script src="status.js">')
        get('/status/status.js').statusCode() == 200
    }

    def "buttons: read-only without auth:, and with it only for the right credentials and only skip, push and stop"() {
        given:
        start('''
            def q = request.queue(id: 'requests')
            def s = sine(440)
            output.harbor(mp3(), fallback(trackSensitive: false, q, s), mount: 'radio', port: PORT, id: 'radio')
            server.register('other.stop') { arg -> 'stopped' }
            status.page(port: PORT, path: '/admin', auth: [user: 'admin', password: 'pw'])
            status.page(port: PORT, path: '/public')
        ''')
        String good = basic('admin', 'pw')
        Map page = [Authorization: good, 'X-Groovecast-Status': '1']

        expect: 'a read-only page has no buttons; the other needs its credentials'
        post('/public/api/control/radio.skip', '', page).statusCode() == 404
        post('/admin/api/control/radio.skip', '', ['X-Groovecast-Status': '1']).statusCode() == 401
        post('/admin/api/control/radio.skip', '', [Authorization: basic('admin', 'wrong'), 'X-Groovecast-Status': '1']).statusCode() == 401

        and: 'only the commands the page offers: skip of outputs, push of queues, stop of live inputs'
        post('/admin/api/control/uptime', '', page).statusCode() == 404
        post('/admin/api/control/radio.metadata', '', page).statusCode() == 404
        post('/admin/api/control/other.stop', '', page).statusCode() == 404
        post('/admin/api/control/radio.skip', '', page).statusCode() == 200

        and: 'not from another site: without the page header, or from another origin'
        post('/admin/api/control/radio.skip', '', [Authorization: good]).statusCode() == 403
        post('/admin/api/control/radio.skip', '', page + [Origin: 'http://evil.example']).statusCode() == 403
        post('/admin/api/control/radio.skip', '', page + [Origin: "http://127.0.0.1:${port}".toString()]).statusCode() == 200

        and: 'who is logged in, without a dialog'
        JSON.readValue(get('/admin/api/whoami', [Authorization: good]).body(), Map) == [buttons: true, loggedIn: true]
        JSON.readValue(get('/admin/api/whoami').body(), Map) == [buttons: true, loggedIn: false]
        JSON.readValue(get('/public/api/whoami').body(), Map) == [buttons: false, loggedIn: false]
        get('/admin/api/whoami', [Authorization: basic('admin', 'guess')]).statusCode() == 401

        and: "the log-in challenge: the browser's first, empty round is no failed login, however often"
        (1..15).every { get('/admin/api/login').statusCode() == 401 }
        get('/admin/api/login').headers().firstValue('www-authenticate').orElse('').startsWith('Basic')
        get('/admin/api/login', [Authorization: good]).statusCode() == 303

        when: 'a request is pushed through the page'
        def file = Media.mp3('status-pushed.mp3', [880], 6, 'Pushed')
        def r = post('/admin/api/control/requests.push', file.toString(), page)

        then:
        r.statusCode() == 200
        r.body().trim() ==~ /\d+/
        Net.await(8) { json('/api/nowplaying').outputs[0].nowPlaying?.title == 'Pushed' }
    }

    def "status.page(auth:) with a missing password is a script error that says what to write"() {
        when:
        Engine.load('bad.groovy', "output.dummy(sine()); status.page(port: ${port}, auth: [user: 'admin'])", [:])

        then:
        def e = thrown(Exception)
        e.message.contains("status.page(): auth: needs a user and a password, as [user: 'admin', password: '...']; its password is missing")
    }

    def "a reload keeps each output's history, and the page's event stream ends so that the browser reconnects to the new station"() {
        given:
        Path script = dir.resolve('radio.groovy')
        String text = """
            def s = sine(440, amplitude: 0.3)
            thread.run(delay: 0.2) { -> s.insertMetadata(title: 'Before', artist: 'A') }
            thread.run(delay: 0.6) { -> s.insertMetadata(title: 'During', artist: 'A') }
            output.harbor(mp3(), s, mount: 'radio', port: ${port}, id: 'radio')
            status.page(port: ${port})
        """.stripIndent()
        Files.writeString(script, text)
        def reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        assert Net.await(5) { json('/api/nowplaying').outputs[0].history*.title == ['Before'] }
        def events = new Socket('127.0.0.1', port)
        events.soTimeout = 10000
        events.outputStream.write("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n".bytes)
        events.inputStream.read(new byte[1024])

        when: 'the script changes its second title and reloads'
        Files.writeString(script, text.replace("title: 'During'", "title: 'After'").readLines()
                .findAll { !it.contains("'Before'") }.join('\n'))
        assert reloader.reload()

        then: 'the songs before the reload are still listed, the new one on top'
        Net.await(5) { json('/api/nowplaying').outputs[0].nowPlaying?.title == 'After' }
        json('/api/nowplaying').outputs[0].history*.title.take(2) == ['During', 'Before']

        and: "the old station's event stream ended"
        drained(events.inputStream)

        cleanup:
        events?.close()
        reloader?.stop()
    }

    /** Reads until the end of the stream (true) or a read timeout (false). */
    static boolean drained(InputStream in) {
        try {
            byte[] b = new byte[8192]
            while (in.read(b) >= 0) { }
            true
        } catch (SocketTimeoutException ignored) {
            false
        }
    }

    def "wrong passwords through the page's log-in and who-am-i count toward the harbor's limit, then 429"() {
        given:
        start('''
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT, id: 'radio')
            status.page(port: PORT, auth: [user: 'admin', password: 'pw'])
        ''')

        when:
        List<Integer> codes = (1..12).collect { i ->
            get(i % 2 ? '/api/login' : '/api/whoami', [Authorization: basic('admin', "guess${i}")]).statusCode()
        }

        then:
        codes.first() == 401
        codes.last() == 429
        get('/api/login', [Authorization: basic('admin', 'pw')]).statusCode() == 429
    }
}
