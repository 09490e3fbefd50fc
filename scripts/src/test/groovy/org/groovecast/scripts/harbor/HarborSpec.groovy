package org.groovecast.scripts.harbor

import ch.qos.logback.classic.Level
import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** The engine's own HTTP server: listener mounts, script endpoints and bad requests, with real clients. */
// alone (scripts/pom.xml): it times GETs while a slow handler runs (< 200 ms) and a 200 MB reply to
// curl (> 50 MB/s), and 200 curl listeners must each get 2.5 s of 4 s of stream: both cores for a while
@Tag("integration")
@Tag("alone")
class HarborSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station

    def cleanup() {
        station?.stop()
    }

    Station start(String script, Map<String, String> settings = [:]) {
        station = Engine.load('station.groovy', script.replace('PORT', port.toString()).replace('DIR', dir.toString()),
                settings)
        station.start(null)
        station
    }

    def "listeners hear the encoded stream, and ICY listeners get the title inline"() {
        given:
        start('''
            def s = sine(440, amplitude: 0.3)
            thread.run(delay: 0.2) { -> s.insertMetadata(title: 'Hello Harbor', artist: 'Groovecast') }
            output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: PORT, name: 'Test FM')
        ''')

        when: 'ffmpeg records 3 s from the mount'
        Path wav = dir.resolve('heard.wav')
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-t', '3', '-i', "http://127.0.0.1:${port}/radio".toString(),
                   '-ac', '1', '-ar', '44100', '-bitexact', wav.toString()])
        Wav heard = Wav.read(wav)

        then:
        heard.seconds > 2.5
        Math.abs(heard.frequency(0.3, heard.seconds - 0.3) - 440) < 3

        when: 'a listener asks for ICY metadata'
        def s = new Socket('127.0.0.1', port)
        s.soTimeout = 5000
        s.outputStream.write("GET /radio HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1))
        def input = new DataInputStream(new BufferedInputStream(s.inputStream))
        def head = []
        String line
        while ((line = readLine(input))) head << line
        int metaint = head.find { it.toLowerCase().startsWith('icy-metaint:') }.split(':')[1].trim() as int
        input.skipBytes(metaint)
        int blocks = input.readUnsignedByte()
        byte[] meta = new byte[blocks * 16]
        input.readFully(meta)
        s.close()

        then:
        head[0] == 'HTTP/1.0 200 OK'
        head.contains('Content-Type: audio/mpeg')
        head.contains('icy-name: Test FM')
        new String(meta, StandardCharsets.UTF_8).startsWith("StreamTitle='Groovecast - Hello Harbor';")
    }

    private static String readLine(DataInputStream in) {
        def b = new ByteArrayOutputStream()
        int c
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') b.write(c)
        }
        b.toString(StandardCharsets.ISO_8859_1)
    }

    def "script endpoints answer with path parameters, query, headers and body; keep-alive serves several requests"() {
        given:
        start('''
            harbor.http.register('/hello/:name', port: PORT) { req ->
                http.response(contentType: 'text/plain', headers: ['X-Who': req.params.name],
                        data: "hello ${req.params.name} ${req.query.x} ${req.headers['user-agent']}")
            }
            harbor.http.register('/echo', port: PORT, method: 'POST') { req -> req.body.reverse() }
            harbor.http.register('/boom', port: PORT) { req -> throw new IllegalStateException('kaboom') }
            output.dummy(sine())
        ''')

        when:
        String two = Net.raw(port, "GET /hello/ann?x=1 HTTP/1.1\r\nHost: a\r\nUser-Agent: spec\r\n\r\n" +
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")

        then: 'both answers on one connection'
        two.startsWith('HTTP/1.1 200 OK')
        two.contains('X-Who: ann')
        two.contains('hello ann 1 spec')
        two.contains('cba')
        two.count('HTTP/1.1 200 OK') == 2

        and: 'a handler that throws gets 500, and the server goes on'
        Net.status(Net.raw(port, "GET /boom HTTP/1.1\r\nConnection: close\r\n\r\n")) == 500
        Net.status(Net.raw(port, "GET /boom HTTP/1.1\r\nConnection: close\r\n\r\n")) == 500
        Net.raw(port, "GET /hello/bob HTTP/1.1\r\nConnection: close\r\n\r\n").contains('hello bob')
    }

    def "a slow handler holds up neither the port nor its loop; requests after it on its connection wait their turn; one past the handler timeout gets 503"() {
        given: 'one event loop, so that a handler blocking it would block every request'
        def logged = new LogList()
        logged.start()
        def connectionLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.harbor.HarborConnection')
        connectionLog.addAppender(logged)
        start('''
            harbor.http.register('/slow', port: PORT) { req -> Thread.sleep(3000); 'slept' }
            harbor.http.register('/stuck', port: PORT) { req -> Thread.sleep(6000); 'too late' }
            harbor.http.register('/ping', port: PORT) { req -> 'pong' }
            harbor.http.register('/thread', port: PORT) { req -> Thread.currentThread().isVirtual() }
            output.dummy(sine())
        ''', ['harbor.eventLoops': '1', 'harbor.handlerTimeout': '4'])

        expect: 'handlers run on a virtual thread'
        Net.raw(port, "GET /thread HTTP/1.1\r\nConnection: close\r\n\r\n").endsWith('true')

        when: 'a 3 s handler is asked (a second request pipelined behind it), and pings are made meanwhile'
        def slow = new Socket('127.0.0.1', port)
        slow.soTimeout = 10_000
        long t0 = System.nanoTime()
        slow.outputStream.write(("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n" +
                "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").bytes)
        Thread.sleep(200)
        def latencies = Net.pingLatencies(port)
        String both = slow.inputStream.text
        double answeredAfter = (System.nanoTime() - t0) / 1e9
        println "slow handler: GET latency ${latencies.min().round(1)}..${latencies.max().round(1)} ms while it ran; answered after ${answeredAfter.round(2)} s"

        then: 'every ping was answered at once; the slow one after its 3 s, and the request behind it after it'
        latencies.every { it < 200 }
        answeredAfter > 2.9
        both.count('HTTP/1.1 200 OK') == 2
        both.indexOf('slept') < both.indexOf('pong')

        when: 'a handler that does not answer within settings.harbor.handlerTimeout (4 s)'
        long t1 = System.nanoTime()
        String stuck = Net.raw(port, "GET /stuck HTTP/1.1\r\nHost: x\r\n\r\nGET /ping HTTP/1.1\r\nConnection: close\r\n\r\n", 8000)
        double refusedAfter = (System.nanoTime() - t1) / 1e9

        then: 'it gets 503 at the timeout with a log line naming the setting, and the connection goes on'
        Net.status(stuck) == 503
        refusedAfter > 3.9 && refusedAfter < 5.5
        !stuck.contains('too late')
        stuck.endsWith('pong')
        logged.list.any { it.level == Level.WARN && it.formattedMessage.contains('GET /stuck') &&
                it.formattedMessage.contains('settings.harbor.handlerTimeout') }

        cleanup:
        slow?.close()
        connectionLog.detachAppender(logged)
    }

    def "bad requests get their status and never disturb the listeners"() {
        given:
        Files.writeString(dir.resolve('page.html'), '<p>static</p>')
        start('''
            harbor.http.static('/files', 'DIR', port: PORT)
            harbor.http.register('/up', port: PORT, method: 'POST') { req -> "${req.data.length}" }
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT)
        ''', ['harbor.maxBody': '1000'])
        def listener = new URL("http://127.0.0.1:${port}/radio").openStream()
        listener.read(new byte[1000])

        expect:
        Net.status(Net.raw(port, "NONSENSE\r\n\r\n")) == 400
        Net.status(Net.raw(port, "GET /x HTTP/9.9\r\n\r\n")) == 400
        Net.status(Net.raw(port, "GET /x HTTP/1.1\r\nBroken header\r\n\r\n")) == 400
        Net.status(Net.raw(port, "GET /x HTTP/1.1\r\nX-Big: ${'a' * 17000}\r\n\r\n")) == 431
        Net.status(Net.raw(port, "POST /up HTTP/1.1\r\nContent-Length: 5000\r\n\r\n")) == 413
        Net.status(Net.raw(port, "POST /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")) == 411
        Net.status(Net.raw(port, "GET /nowhere HTTP/1.1\r\nConnection: close\r\n\r\n")) == 404
        Net.raw(port, "POST /up HTTP/1.1\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789").endsWith('10')
        Net.raw(port, "GET /files/page.html HTTP/1.1\r\nConnection: close\r\n\r\n").endsWith('<p>static</p>')
        Net.status(Net.raw(port, "GET /files/../station.groovy HTTP/1.1\r\nConnection: close\r\n\r\n")) == 400

        and: 'the listener still receives'
        listener.read(new byte[10000]) > 0

        cleanup:
        listener?.close()
    }

    def "static files never come from outside their directory: #form is refused with #status"() {
        given:
        Path root = Files.createDirectories(dir.resolve('www'))
        Files.writeString(root.resolve('page.html'), '<p>inside</p>')
        Files.createDirectories(root.resolve('sub'))
        Files.writeString(dir.resolve('secret.txt'), 'SECRET')
        Files.createSymbolicLink(root.resolve('out.txt'), dir.resolve('secret.txt'))
        Files.createSymbolicLink(root.resolve('in.html'), root.resolve('page.html'))
        start('''
            harbor.http.static('/files', 'DIR/www', port: PORT)
            output.dummy(sine())
        ''')

        when:
        String answer = Net.raw(port, "GET ${target} HTTP/1.1\r\nConnection: close\r\n\r\n")

        then:
        Net.status(answer) == status
        !answer.contains('SECRET')

        and: 'the directory itself is still served, and a link that stays inside it too'
        Net.raw(port, "GET /files/page.html HTTP/1.1\r\nConnection: close\r\n\r\n").endsWith('<p>inside</p>')
        Net.raw(port, "GET /files/in.html HTTP/1.1\r\nConnection: close\r\n\r\n").endsWith('<p>inside</p>')

        where:
        form                              | target                                        | status
        'a plain ../'                     | '/files/../secret.txt'                        | 400
        'a deeper ../'                    | '/files/sub/../../secret.txt'                 | 400
        '%2e%2e/'                         | '/files/%2e%2e/secret.txt'                    | 400
        '%2E%2E%2F'                       | '/files/%2E%2E%2Fsecret.txt'                  | 400
        '..%2f'                           | '/files/..%2fsecret.txt'                      | 400
        'double-encoded %252e%252e'       | '/files/%252e%252e/secret.txt'                | 404
        'double-encoded %252e%252e%252f'  | '/files/%252e%252e%252fsecret.txt'            | 404
        'a backslash'                     | '/files/..\\secret.txt'                       | 400
        'an encoded backslash %5c'        | '/files/..%5csecret.txt'                      | 400
        'an absolute path'                | '/files//etc/passwd'                          | 400
        'an encoded absolute path'        | '/files/%2fetc%2fpasswd'                      | 400
        'a symbolic link out of the root' | '/files/out.txt'                              | 403
        'a NUL byte'                      | '/files/page.html%00.txt'                     | 400
        'a NUL byte mid-name'             | '/files/a%00b'                                | 400
    }

    def "with settings.harbor.followSymlinks a symbolic link out of the directory is served"() {
        given:
        Path root = Files.createDirectories(dir.resolve('www'))
        Files.writeString(dir.resolve('shared.txt'), 'SHARED')
        Files.createSymbolicLink(root.resolve('shared.txt'), dir.resolve('shared.txt'))
        start('''
            harbor.http.static('/files', 'DIR/www', port: PORT)
            output.dummy(sine())
        ''', ['harbor.followSymlinks': 'true'])

        expect:
        Net.raw(port, "GET /files/shared.txt HTTP/1.1\r\nConnection: close\r\n\r\n").endsWith('SHARED')
        Net.status(Net.raw(port, "GET /files/../shared.txt HTTP/1.1\r\nConnection: close\r\n\r\n")) == 400
    }

    def "OPTIONS * is answered as Icecast does, on a connection that goes on, without a log line"() {
        given:
        def logged = new LogList()
        logged.start()
        def connectionLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.harbor.HarborConnection')
        connectionLog.level = Level.INFO // bad requests are logged at INFO
        connectionLog.addAppender(logged)
        start('''
            harbor.http.register('/ping', port: PORT) { req -> 'pong' }
            output.dummy(sine())
        ''')

        when: "libshout's probe, then a request on the same connection"
        String answer = Net.raw(port, "OPTIONS * HTTP/1.1\r\nHost: x\r\nUser-Agent: libshout/2.4.6\r\n" +
                "Connection: Upgrade\r\nUpgrade: TLS/1.0, HTTP/1.1\r\n\r\n" +
                "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        String head = answer.substring(0, answer.indexOf('\r\n\r\n'))

        then:
        head.startsWith('HTTP/1.1 204 No Content')
        head.contains('Allow: GET, HEAD, POST, PUT, OPTIONS, SOURCE')
        head.contains('Accept-Encoding: identity')
        !head.contains('Connection: close')
        answer.endsWith('pong')

        and: 'OPTIONS on a path, and over HTTP/1.0'
        Net.raw(port, "OPTIONS /ping HTTP/1.1\r\nConnection: close\r\n\r\n").startsWith('HTTP/1.1 204 No Content')
        Net.raw(port, "OPTIONS * HTTP/1.0\r\n\r\n").startsWith('HTTP/1.0 204 No Content')

        and: 'a * target for anything else is still a bad request'
        Net.status(Net.raw(port, "GET * HTTP/1.1\r\n\r\n")) == 400

        and: 'only that bad request was logged'
        logged.list.size() == 1
        logged.list[0].formattedMessage.contains('bad target')

        cleanup:
        connectionLog.detachAppender(logged)
        connectionLog.level = null
    }

    def "a streamed reply keeps pace with a slow reader and arrives whole, and reaches a fast reader at speed"() {
        given: 'a 200 MB body streamed from 4 MB of random bytes, and a 4 MB one'
        start('''
            byte[] block = new byte[4_000_000]
            new Random(11).nextBytes(block)
            harbor.http.register('/big', port: PORT) { req ->
                http.response(contentType: 'application/octet-stream', data: new SequenceInputStream(
                        Collections.enumeration((1..50).collect { new ByteArrayInputStream(block) })))
            }
            harbor.http.register('/block', port: PORT) { req ->
                http.response(contentType: 'application/octet-stream', data: new ByteArrayInputStream(block))
            }
            output.dummy(sine())
        ''')
        byte[] block = new byte[4_000_000]
        new Random(11).nextBytes(block)

        when: 'a slow reader takes 16 KiB every 10 ms, with pauses'
        def s = new Socket('127.0.0.1', port)
        s.receiveBufferSize = 16384
        s.soTimeout = 10_000
        s.outputStream.write("GET /block HTTP/1.1\r\nHost: x\r\n\r\n".bytes)
        def input = new DataInputStream(new BufferedInputStream(s.inputStream, 16384))
        while (readLine(input)) { }
        def got = new ByteArrayOutputStream()
        byte[] buf = new byte[16384]
        int n
        int reads = 0
        while ((n = input.read(buf)) > 0) {
            got.write(buf, 0, n)
            Thread.sleep(++reads % 50 == 0 ? 500 : 10)
        }
        s.close()

        then:
        got.toByteArray() == block

        when: 'curl reads the 200 MB as fast as it can'
        Process curl = new ProcessBuilder('curl', '-s', '-o', '/dev/null', '-w', '%{size_download} %{speed_download}',
                "http://127.0.0.1:${port}/big".toString()).start()
        assert curl.waitFor(60, TimeUnit.SECONDS)
        def (size, speed) = curl.inputStream.text.trim().split(' ').collect { it as double }
        println "streamed reply: ${(speed / 1e6).round(1)} MB/s to curl"

        then:
        size == 200_000_000
        speed > 50e6
    }

    def "large bodies are streamed or sent from the file, and a mount can require a login"() {
        given:
        byte[] file = new byte[2_000_000]
        new Random(7).nextBytes(file)
        Files.write(dir.resolve('big.bin'), file)
        start('''
            harbor.http.register('/stream', port: PORT) { req ->
                http.response(contentType: 'application/octet-stream', data: new ByteArrayInputStream(new byte[3_000_000]))
            }
            harbor.http.register('/file', port: PORT) { req ->
                http.response(contentType: 'application/octet-stream', data: java.nio.file.Path.of('DIR/big.bin'))
            }
            output.harbor(mp3(), sine(), mount: 'members', port: PORT, auth: { u, p -> u == 'ann' && p == 'pw' })
        ''')

        when:
        def streamed = new URL("http://127.0.0.1:${port}/stream").openConnection()
        byte[] got = streamed.inputStream.bytes
        def filed = new URL("http://127.0.0.1:${port}/file").openConnection()
        byte[] gotFile = filed.inputStream.bytes

        then:
        got.length == 3_000_000
        streamed.getHeaderField('Content-Length') == null
        filed.getHeaderField('Content-Length') == '2000000'
        gotFile == file

        and: 'the members-only mount'
        Net.status(Net.raw(port, "GET /members HTTP/1.0\r\n\r\n")) == 401
        Net.status(Net.raw(port, "GET /members HTTP/1.0\r\nAuthorization: Basic ${'ann:wrong'.bytes.encodeBase64()}\r\n\r\n")) == 401
        Net.raw(port, "GET /members HTTP/1.0\r\nAuthorization: Basic ${'ann:pw'.bytes.encodeBase64()}\r\n\r\n", 500)
                .startsWith('HTTP/1.0 200 OK')
    }

    def "200 listeners receive the stream; one that stops reading is dropped alone"() {
        given:
        start('''
            output.harbor(mp3(bitrate: 320), sine(), mount: 'radio', port: PORT, maxBuffer: 65536, burst: 0)
        ''')
        def mount = station.network().harbors()[0]

        when: '200 curl listeners for 4 s, and one raw listener that never reads'
        def stuck = new Socket('127.0.0.1', port)
        stuck.receiveBufferSize = 4096
        stuck.outputStream.write("GET /radio HTTP/1.0\r\n\r\n".bytes)
        def curls = (1..200).collect {
            new ProcessBuilder('curl', '-s', '-o', '/dev/null', '--max-time', '4', '-w', '%{size_download}',
                    "http://127.0.0.1:${port}/radio".toString()).start()
        }
        def sizes = curls.collect { p ->
            p.waitFor(30, TimeUnit.SECONDS)
            p.inputStream.text.trim() as long
        }

        then: 'every curl got about 4 s of 320 kbit/s (at least 2.5 s worth)'
        sizes.size() == 200
        sizes.every { it > 2.5 * 40000 }

        and: 'the stuck one was dropped'
        Net.await(10) { mount.listeners('/radio') == 0 }

        cleanup:
        stuck?.close()
    }
}
