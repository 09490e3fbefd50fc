package org.groovecast.scripts.harbor

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.live.LiveInputSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Net
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * What one client may hold of a harbor port: slowloris heads are cut at the head timeout, idle
 * keep-alive connections at the idle timeout (never a listener or a DJ), connections over the caps
 * get 503, and a process out of file descriptors logs it once instead of in a loop.
 */
// alone (scripts/pom.xml): it times GETs (< 200 ms) and the closing of 200 slowloris connections
// (1.9..3.5 s) while they hold the port, and starts a second JVM under a 30 s limit: both cores for a while
@Tag("integration")
@Tag("alone")
class HarborLimitsSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station

    def cleanup() {
        station?.stop()
    }

    Station start(Map<String, String> settings, String extra = '') {
        station = Engine.load('limits.groovy', """
            harbor.http.register('/ping', port: ${port}) { req -> 'pong' }
            output.harbor(mp3(bitrate: 64), sine(), mount: 'radio', port: ${port})
            ${extra}
        """.stripIndent(), settings)
        station.start(null)
        station
    }

    /** Milliseconds a GET /ping takes on a new connection, and its answer. */
    Map ping(String from = '127.0.0.1') {
        long t0 = System.nanoTime()
        String answer = Net.rawFrom(from, port, "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        [ms: (System.nanoTime() - t0) / 1e6, answer: answer]
    }

    def "200 slowloris connections are closed at the head timeout while a listener and requests are served"() {
        given:
        start(['harbor.headTimeout': '2'])
        def listener = new URL("http://127.0.0.1:${port}/radio").openStream()
        listener.read(new byte[1000])

        when: '200 clients send a head one header line every 300 ms, never its end'
        def closedAfter = new ConcurrentLinkedQueue<Double>()
        def answers = new ConcurrentLinkedQueue<String>()
        def sockets = []
        def threads = (1..200).collectMany {
            Socket s = new Socket('127.0.0.1', port)
            long t0 = System.nanoTime()
            sockets << s
            def writer = Thread.startVirtualThread {
                try {
                    s.outputStream.write('GET /ping HTTP/1.1\r\nHost: x\r\n'.bytes)
                    while (true) {
                        Thread.sleep(300)
                        s.outputStream.write('X-Slow: yes\r\n'.bytes)
                    }
                } catch (IOException ignored) {
                    // closed by the server
                }
            }
            def reader = Thread.startVirtualThread {
                s.soTimeout = 10_000
                try {
                    answers << new String(s.inputStream.readAllBytes(), StandardCharsets.ISO_8859_1)
                } catch (IOException e) {
                    answers << e.toString()
                }
                closedAfter << (System.nanoTime() - t0) / 1e9
            }
            [writer, reader]
        }
        Thread.sleep(1000)
        def pings = (1..5).collect { ping() }

        then: 'meanwhile requests are answered at once, and the listener still receives'
        pings.every { it.answer.endsWith('pong') && it.ms < 200 }
        listener.read(new byte[10000]) > 0

        and: 'every slow client was cut between 2 and 3.5 s after it connected, with a 408'
        Net.await(5) { closedAfter.size() == 200 }
        closedAfter.every { it >= 1.9 && it < 3.5 }
        answers.every { it.startsWith('HTTP/1.1 408') }
        println "slowloris: 200 closed after ${closedAfter.min().round(2)}..${closedAfter.max().round(2)} s; " +
                "GET during it ${pings*.ms.max().round(1)} ms at most"

        and: 'and the port counts none of them any more'
        Net.await(2) { station.network().harbors()[0].openConnections() == 1 }

        cleanup:
        threads*.join(1000)
        sockets*.close()
        listener?.close()
    }

    def "connections over the cap of an address, or of the port, get 503; others are served, and service resumes when they leave"() {
        given:
        start(['harbor.maxConnectionsPerAddress': '5', 'harbor.maxConnections': '8'])

        when: 'one address holds 5 idle connections'
        def held = (1..5).collect { Net.connectFrom('127.0.0.1', port) }
        // Counted once the loop has accepted them (a fixed sleep lost that race under load).
        Net.await(5) { station.network().harbors()[0].openConnections() >= 5 }
        String sixth = Net.rawFrom('127.0.0.1', port, "GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")

        then: 'its sixth gets 503, another address is served'
        Net.status(sixth) == 503
        sixth.contains('too many connections from your address')
        sixth.contains('Retry-After: 5')
        ping('127.0.0.2').answer.endsWith('pong')

        when: 'one of the five leaves'
        held.remove(0).close()

        then: 'the address is served again'
        Net.await(2) { ping('127.0.0.1').answer.endsWith('pong') }

        when: 'three more addresses fill the port to its 8'
        held += (1..4).collect { Net.connectFrom('127.0.0.3', port) }
        Net.await(5) { station.network().harbors()[0].openConnections() >= 8 }
        String full = Net.rawFrom('127.0.0.4', port, "GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")

        then: 'a ninth, from anywhere, gets 503'
        Net.status(full) == 503
        full.contains('connection limit')

        when: 'they all leave'
        held*.close()

        then:
        Net.await(2) { ping('127.0.0.4').answer.endsWith('pong') }
        Net.await(2) { station.network().harbors()[0].openConnections() == 0 }
    }

    def "an idle keep-alive connection is closed at the idle timeout; a listener, a DJ and a streamed reply are not"() {
        given:
        start(['harbor.idleTimeout': '1'], """
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.2)
            output.dummy(mksafe(live))
            harbor.http.register('/slow', port: ${port}) { req ->
                http.response(data: new SequenceInputStream(Collections.enumeration((1..40).collect {
                    new ByteArrayInputStream(new byte[100_000]) })))
            }
        """)
        def live = station.graph().sources().find { it.kind() == 'input.harbor' }

        when: 'a keep-alive client makes one request, then waits'
        def keepAlive = new Socket('127.0.0.1', port)
        keepAlive.soTimeout = 5000
        keepAlive.outputStream.write("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n".bytes)
        byte[] buf = new byte[1000]
        int n = keepAlive.inputStream.read(buf)
        long t0 = System.nanoTime()
        int end = keepAlive.inputStream.read(buf)
        double closedAfter = (System.nanoTime() - t0) / 1e9

        then: 'answered, then closed after about a second'
        new String(buf, 0, n).endsWith('pong')
        end == -1
        closedAfter > 0.8 && closedAfter < 2.5

        when: 'a listener, a DJ and a slow reader of a streamed reply stay 3 s, well past the idle timeout'
        def listener = new URL("http://127.0.0.1:${port}/radio").openStream()
        Process dj = LiveInputSpec.sourceClient(port, 'secret', 5, 880)
        def slow = new Socket('127.0.0.1', port)
        slow.receiveBufferSize = 8192
        slow.outputStream.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".bytes)
        assert Net.await(3) { live.isConnected() }
        boolean djStayed = true
        long slowBytes = 0
        long stop = System.nanoTime() + 3_000_000_000L
        while (System.nanoTime() < stop) {
            listener.read(new byte[4000])
            slowBytes += slow.inputStream.read(new byte[1000])
            djStayed &= live.isConnected()
            Thread.sleep(100)
        }

        then:
        djStayed
        listener.read(new byte[10000]) > 0
        slowBytes > 0
        slow.inputStream.read(new byte[1000]) > 0

        cleanup:
        keepAlive?.close()
        listener?.close()
        slow?.close()
        dj?.destroy()
    }

    def "a process out of file descriptors says so once, not in a loop, and serves again when they free"() {
        given: 'a station in a JVM of its own limited to 300 open files, with caps above that'
        Path script = dir.resolve('station.groovy')
        Files.writeString(script, "harbor.http.register('/ping', port: ${port}) { req -> 'pong' }\noutput.dummy(sine())\n")
        Path log = dir.resolve('station.log')
        String java = Path.of(System.getProperty('java.home'), 'bin', 'java').toString()
        def cmd = ['bash', '-c', 'ulimit -n 300 && exec "$@"', 'limited', java, '-cp', System.getProperty('java.class.path'),
                   'org.groovecast.host.cli.Main', 'run', '--plugins-dir', Engine.PLUGINS.toAbsolutePath().toString(),
                   '--set', 'harbor.maxConnections=100000', '--set', 'harbor.maxConnectionsPerAddress=100000',
                   script.toString()]
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start()
        assert Net.await(30) { Files.readString(log).contains('harbor: listening') }: Files.readString(log)

        when: '400 connections are opened and held for 3 s'
        def sockets = (1..400).collect { new Socket('127.0.0.1', port) }
        Thread.sleep(3000)
        String during = Files.readString(log)

        then: 'the failed accepts were logged once'
        during.count('cannot accept connections') == 1
        !during.contains('An exceptionCaught() event was fired')

        when: 'they leave'
        sockets*.close()

        then: 'the station serves again, and says so'
        Net.await(10) { Net.raw(port, "GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n", 1000).endsWith('pong') }
        Net.await(5) { Files.readString(log).contains('accepting connections again') }
        Files.readString(log).count('cannot accept connections') == 1

        cleanup:
        sockets*.close()
        p?.destroy()
        p?.waitFor(10, TimeUnit.SECONDS)
    }
}
