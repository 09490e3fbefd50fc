package org.groovecast.scripts

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import org.groovecast.host.Station
import org.slf4j.LoggerFactory
import spock.lang.Specification

/** Hostile and broken RTMP clients, with raw sockets: each closes its own session, nobody else notices. */
class RtmpBadInputSpec extends Specification {
    int port = Net.freePort()
    Station station
    ListAppender<ILoggingEvent> logged = new ListAppender<>()
    Logger connectionLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.rtmp.RtmpConnection')

    def setup() {
        station = Engine.load('relay.groovy', """
            rtmp.server(port: ${port}, bind: '127.0.0.1')
            output.dummy(blank())
        """.stripIndent(), [:])
        station.start(null)
        logged.start()
        connectionLog.addAppender(logged)
    }

    def cleanup() {
        connectionLog.detachAppender(logged)
        station?.stop()
    }

    /** A raw client: the simple handshake, then chunks written by hand. */
    static final class Client implements Closeable {
        final Socket socket

        /** @param receiveBuffer a small one makes a client that does not read look slow at once */
        Client(int port, boolean handshake = true, int receiveBuffer = 0) {
            socket = new Socket()
            if (receiveBuffer > 0) socket.receiveBufferSize = receiveBuffer
            socket.connect(new InetSocketAddress('127.0.0.1', port))
            socket.soTimeout = 3000
            if (handshake) {
                send([3] + [0] * 1536)
                readFully(1 + 1536 + 1536)
                send([0] * 1536)
            }
        }

        void send(List<Integer> bytes) {
            socket.outputStream.write(bytes as byte[])
            socket.outputStream.flush()
        }

        byte[] readFully(int n) {
            byte[] b = new byte[n]
            int off = 0
            while (off < n) {
                int r = socket.inputStream.read(b, off, n - off)
                if (r < 0) throw new EOFException("closed after ${off} bytes")
                off += r
            }
            b
        }

        /** Whether the server closed the connection within {@code ms} (reading and dropping what it sends). */
        boolean closedWithin(long ms) {
            socket.soTimeout = (int) ms
            long end = System.currentTimeMillis() + ms
            byte[] b = new byte[4096]
            try {
                while (System.currentTimeMillis() < end) {
                    if (socket.inputStream.read(b) < 0) return true
                }
            } catch (SocketTimeoutException ignored) {
                return false
            } catch (IOException reset) {
                return true
            }
            false
        }

        /** What the server sends within {@code ms}, as ISO-8859-1 text (AMF strings show through). */
        String readFor(long ms) {
            socket.soTimeout = 200
            def out = new ByteArrayOutputStream()
            long end = System.currentTimeMillis() + ms
            byte[] b = new byte[4096]
            while (System.currentTimeMillis() < end) {
                try {
                    int r = socket.inputStream.read(b)
                    if (r < 0) break
                    out.write(b, 0, r)
                } catch (SocketTimeoutException ignored) {
                    // keep listening
                }
            }
            out.toString(StandardCharsets.ISO_8859_1)
        }

        void close() {
            socket.close()
        }
    }

    /** A type-0 chunk header on chunk stream {@code csid} (2..63), message stream {@code streamId}. */
    static List<Integer> header(int csid, int length, int type, int streamId = 0) {
        [csid, 0, 0, 0, (length >> 16) & 0xFF, (length >> 8) & 0xFF, length & 0xFF, type, streamId & 0xFF, 0, 0, 0]
    }

    static List<Integer> amfString(String s) {
        [2, s.length() >> 8, s.length() & 0xFF] + (s.bytes as List<Integer>)
    }

    static List<Integer> amfNumber(double d) {
        [0] + (ByteBuffer.allocate(8).putDouble(d).array() as List<Integer>)
    }

    static List<Integer> command(String name, double txn, List<Integer> rest = [5], int streamId = 0) {
        List<Integer> body = amfString(name) + amfNumber(txn) + rest
        header(3, body.size(), 20, streamId) + body
    }

    static final List<Integer> CONNECT = command('connect', 1,
            [3, 0, 3] + ('app'.bytes as List<Integer>) + amfString('live') + [0, 0, 9])

    boolean loggedReason(String text) {
        Net.await(2) { logged.list.any { it.formattedMessage.contains(text) } }
    }

    def "C0 other than 3: closed at once, without a byte of reply"() {
        given:
        def c = new Client(port, false)

        when:
        c.send([6] + [0] * 100)
        byte[] b = new byte[16]
        int r = c.socket.inputStream.read(b)

        then:
        r == -1
        loggedReason('handshake: version 6, not 3')

        cleanup:
        c?.close()
    }

    def "1,000 half-finished handshakes: each closed at the 10 s handshake timeout, no thread growth, heap back to its baseline"() {
        given:
        System.gc()
        long heapBefore = Runtime.runtime.totalMemory() - Runtime.runtime.freeMemory()
        int threadsBefore = Thread.activeCount()

        when:
        List<Client> clients = (1..1000).collect { i ->
            def c = new Client(port, false)
            c.send([3] + [0] * 100) // C0 and a tenth of C1, then silence
            c
        }
        Thread.sleep(1000)
        int threadsDuring = Thread.activeCount()
        boolean openBeforeTimeout = !clients[0].closedWithin(5000) // 6 s in: still waiting
        boolean allClosed = clients.every { it.closedWithin(8000) } // the last one at 10 s after it came
        clients*.close()
        Thread.sleep(500)
        System.gc()
        long heapAfter = Runtime.runtime.totalMemory() - Runtime.runtime.freeMemory()

        then:
        openBeforeTimeout
        allClosed
        threadsDuring - threadsBefore <= 4
        heapAfter - heapBefore < 16L << 20
    }

    def "#what: that session closes before allocating, with a log line naming the reason; a session beside it carries on"() {
        given:
        def bystander = new Client(port)
        def bad = new Client(port)

        when:
        bad.send(bytes)
        boolean closed = bad.closedWithin(2000)
        bystander.send(CONNECT)
        String answer = bystander.readFor(1000)

        then:
        closed
        loggedReason(reason)
        answer.contains('_result') && answer.contains('NetConnection.Connect.Success')

        cleanup:
        bad?.close()
        bystander?.close()

        where:
        what                          | bytes                                                   | reason
        'a message over 8 MiB'        | header(3, 0xFFFFFF, 20)                                 | 'exceeds the limit'
        'chunk size 0'                | header(2, 4, 1) + [0, 0, 0, 0]                          | 'chunk size 0'
        'chunk size with the top bit' | header(2, 4, 1) + [0x80, 0, 0, 1]                       | 'chunk size'
        'a chunk stream id too high'  | [1, 0xFF, 0xFF] + header(3, 4, 20).drop(1) + [0] * 4    | 'chunk stream id'
        'an unknown message type'     | header(3, 4, 7) + [0] * 4                               | 'unknown message type 7'
        'a malformed command'         | header(3, 4, 20) + [0x0D, 0, 0, 0]                      | 'AMF0'
    }

    def "an unknown command gets _error, and the connection stays up"() {
        given:
        def c = new Client(port)
        c.send(CONNECT)
        c.readFor(500)

        when:
        c.send(command('noSuchCommand', 7))
        String answer = c.readFor(1000)
        c.send(command('createStream', 8))
        String created = c.readFor(1000)

        then:
        answer.contains('_error') && answer.contains('unknown command noSuchCommand')
        created.contains('_result')

        cleanup:
        c?.close()
    }

    def "an AMF3 command message (type 17, a leading 0 then AMF0) is understood like an AMF0 one"() {
        given:
        def c = new Client(port)
        List<Integer> body = [0] + amfString('connect') + amfNumber(1) + [3, 0, 3] + ('app'.bytes as List<Integer>) +
                amfString('live') + [0, 0, 9]

        when:
        c.send(header(3, body.size(), 17) + body)
        String answer = c.readFor(1000)

        then:
        answer.contains('_result') && answer.contains('NetConnection.Connect.Success')

        cleanup:
        c?.close()
    }
}
