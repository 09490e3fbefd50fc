package org.groovecast.scripts.harbor

import com.sun.net.httpserver.HttpServer
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Who may listen, on a running station with real clients (sockets from several 127.0.0.0/8 addresses, curl, a real HTTP
 * auth server): a mount's cap, time limit, deny list and admit function, Icecast's URL auth, and a served HLS
 * directory's ban.
 */
@Tag("integration")
class AdmissionSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station

    def cleanup() {
        station?.stop()
    }

    Station start(String script) {
        station = Engine.load('station.groovy', script.replace('PORT', port.toString()).replace('DIR', dir.toString()))
        station.start(null)
        station
    }

    /** The head of what {@code from} is answered for {@code request}, read for {@code ms} at most. */
    String head(String request, String from = '127.0.0.1', int ms = 1500) {
        String r = Net.rawFrom(from, port, request, ms)
        int end = r.indexOf('\r\n\r\n')
        end < 0 ? r : r.substring(0, end)
    }

    static String listen(String agent = 'VLC/3.0.20') {
        "GET /radio HTTP/1.0\r\nUser-Agent: ${agent}\r\n\r\n"
    }

    def "past maxListeners the next listener gets 503 with Retry-After, and gets in once a place frees"() {
        given:
        start('''
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT, maxListeners: 2)
        ''')
        def mount = station.network().harbors()[0]

        when:
        def a = Net.connectFrom('127.0.0.1', port)
        def b = Net.connectFrom('127.0.0.1', port)
        [a, b].each { it.outputStream.write(listen().bytes) }
        long end = System.nanoTime() + 5_000_000_000L
        while (mount.listeners('/radio') < 2 && System.nanoTime() < end) Thread.sleep(20)
        String third = head(listen())

        then:
        mount.listeners('/radio') == 2
        third.startsWith('HTTP/1.0 503 ')
        third.readLines().contains('Retry-After: 30')

        when: 'one leaves'
        a.close()
        end = System.nanoTime() + 5_000_000_000L
        while (mount.listeners('/radio') > 1 && System.nanoTime() < end) Thread.sleep(20)

        then:
        head(listen()).startsWith('HTTP/1.0 200 OK')

        cleanup:
        b?.close()
    }

    def "a listener is disconnected at maxListenerDuration"() {
        given:
        start('''
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT, maxListenerDuration: 1.5)
        ''')

        when: 'a listener reads until the harbor closes the connection (6 s at most)'
        def s = Net.connectFrom('127.0.0.1', port)
        s.soTimeout = 500
        long t0 = System.nanoTime()
        s.outputStream.write(listen().bytes)
        byte[] buf = new byte[65536]
        long bytes = 0
        boolean closed = false
        while (!closed && System.nanoTime() - t0 < 6_000_000_000L) {
            try {
                int n = s.inputStream.read(buf)
                if (n < 0) closed = true
                else bytes += n
            } catch (SocketTimeoutException ignored) {
                // the stream pauses between chunks: read on until the deadline
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9
        s.close()

        then:
        closed
        seconds > 1.4
        seconds < 4
        bytes > 16_000
    }

    def "a denied address or agent gets 403, others are served; behind a trusted proxy the client it names is judged"() {
        given:
        start('''
            settings.harbor.trustedProxies = ['127.0.0.4']
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT,
                    deny: [addresses: ['127.0.0.2', '127.0.1.0/24', '2001:db8::/32'], agents: ['curl/*', '*bot*']])
        ''')

        expect:
        head(listen(), '127.0.0.2').startsWith('HTTP/1.0 403 ')
        head(listen(), '127.0.1.77').startsWith('HTTP/1.0 403 ')
        head(listen(), '127.0.0.3').startsWith('HTTP/1.0 200 OK')
        head(listen('Mozilla/5.0 (compatible; bingbot/2.0)'), '127.0.0.3').startsWith('HTTP/1.0 403 ')
        head("GET /radio HTTP/1.0\r\nX-Forwarded-For: 127.0.0.2\r\n\r\n", '127.0.0.4').startsWith('HTTP/1.0 403 ')
        head("GET /radio HTTP/1.0\r\nX-Forwarded-For: 127.0.0.3\r\n\r\n", '127.0.0.4').startsWith('HTTP/1.0 200 OK')
        head("GET /radio HTTP/1.0\r\nX-Forwarded-For: 127.0.0.3\r\n\r\n", '127.0.0.2').startsWith('HTTP/1.0 403 ')

        when: 'curl itself'
        def curl = new ProcessBuilder('curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '3',
                "http://127.0.0.1:${port}/radio".toString()).start()
        curl.waitFor()

        then:
        curl.inputStream.text.trim() == '403'
    }

    def "the admit function allows, denies and redirects; one that throws or hangs refuses with one log line"() {
        given:
        start('''
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT, admit: { client ->
                String token = client.query.token
                if (token == 'good') return client.agent == 'VLC/3.0.20' && client.address == '127.0.0.1'
                if (token == 'away') return [redirect: 'https://example.org/subscribe']
                if (token == 'boom') throw new IllegalStateException('the token store is down')
                if (token == 'hang') Thread.sleep(60_000)
                false
            })
        ''')
        def log = new LogCapture(org.slf4j.Logger.ROOT_LOGGER_NAME) // the tests' config logs WARN and above

        expect:
        head("GET /radio?token=good HTTP/1.0\r\nUser-Agent: VLC/3.0.20\r\n\r\n").startsWith('HTTP/1.0 200 OK')
        head("GET /radio?token=bad HTTP/1.0\r\nUser-Agent: VLC/3.0.20\r\n\r\n").startsWith('HTTP/1.0 403 ')
        head("GET /radio HTTP/1.0\r\n\r\n").startsWith('HTTP/1.0 403 ')

        when:
        String away = head("GET /radio?token=away HTTP/1.0\r\n\r\n")

        then:
        away.startsWith('HTTP/1.0 302 ')
        away.readLines().contains('Location: https://example.org/subscribe')

        when: 'it throws'
        String boom = head("GET /radio?token=boom HTTP/1.0\r\n\r\n")

        then:
        boom.startsWith('HTTP/1.0 503 ')
        log.messages().size() == 1
        log.messages()[0].contains('the token store is down')

        when: 'it hangs past the auth deadline (10 s)'
        long t0 = System.nanoTime()
        String hang = head("GET /radio?token=hang HTTP/1.0\r\n\r\n", '127.0.0.1', 15_000)
        double waited = (System.nanoTime() - t0) / 1e9

        then:
        hang.startsWith('HTTP/1.0 503 ')
        waited > 9.5 && waited < 13
        log.messages().size() == 2
        log.messages()[1].contains('did not answer within 10 s')

        cleanup:
        log?.close()
    }

    def "harbor.admit.url asks a real auth server with Icecast's listener_add fields"() {
        given: 'an auth server that admits the user ann with the password pw'
        def posted = new CopyOnWriteArrayList<String>()
        HttpServer auth = HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        auth.createContext('/listener_add') { x ->
            String body = new String(x.requestBody.readAllBytes(), StandardCharsets.UTF_8)
            posted << body
            if (body.contains('&user=ann&pass=pw&')) x.responseHeaders.add('icecast-auth-user', '1')
            else x.responseHeaders.add('icecast-auth-message', 'wrong password')
            x.sendResponseHeaders(200, -1)
            x.close()
        }
        auth.start()
        start("""
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT,
                    admit: harbor.admit.url('http://127.0.0.1:${auth.address.port}/listener_add'))
        """)
        String ann = 'ann:pw'.bytes.encodeBase64()
        String eve = 'eve:guess'.bytes.encodeBase64()

        expect:
        head("GET /radio?s=1 HTTP/1.0\r\nUser-Agent: VLC/3.0.20\r\nAuthorization: Basic ${ann}\r\n\r\n")
                .startsWith('HTTP/1.0 200 OK')
        head("GET /radio HTTP/1.0\r\nAuthorization: Basic ${eve}\r\n\r\n").startsWith('HTTP/1.0 403 ')
        posted[0] ==~ /action=listener_add&server=&port=${port}&client=\d+&mount=%2Fradio%3Fs%3D1&user=ann&pass=pw&ip=127\.0\.0\.1&agent=VLC%2F3\.0\.20/
        posted[1].contains('&user=eve&pass=guess&')

        cleanup:
        auth?.stop(0)
    }

    def "a served HLS directory refuses a banned client on every request"() {
        given:
        Files.createDirectories(dir.resolve('hls'))
        start('''
            output.file.hls('DIR/hls', [aac: aac(bitrate: 64)], sine(), segmentDuration: 1, segments: 3)
            harbor.http.static('/hls', 'DIR/hls', port: PORT, deny: [addresses: ['127.0.0.2']])
        ''')
        Path playlist = dir.resolve('hls/aac.m3u8')
        String segment = null
        long end = System.nanoTime() + 10_000_000_000L
        while (segment == null && System.nanoTime() < end) {
            Thread.sleep(50)
            if (Files.exists(playlist)) segment = Files.readAllLines(playlist).find { it && !it.startsWith('#') }
        }

        expect:
        head("GET /hls/stream.m3u8 HTTP/1.1\r\nConnection: close\r\n\r\n", '127.0.0.2').startsWith('HTTP/1.1 403 ')
        head("GET /hls/${segment} HTTP/1.1\r\nConnection: close\r\n\r\n", '127.0.0.2').startsWith('HTTP/1.1 403 ')
        head("GET /hls/stream.m3u8 HTTP/1.1\r\nConnection: close\r\n\r\n", '127.0.0.3').startsWith('HTTP/1.1 200 OK')
        head("GET /hls/${segment} HTTP/1.1\r\nConnection: close\r\n\r\n", '127.0.0.3').startsWith('HTTP/1.1 200 OK')
    }
}
