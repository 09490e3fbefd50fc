package org.groovecast.scripts.rtmp

import ch.qos.logback.classic.Level
import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import io.netty.buffer.PooledByteBufAllocator
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import org.groovecast.host.Station
import org.groovecast.net.rtmp.RtmpServer
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Net
import org.slf4j.LoggerFactory
import spock.lang.Shared
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** Hostile and broken RTMP clients, with raw sockets: each closes its own session, nobody else notices. */
@Tag("integration")
class RtmpBadInputSpec extends Specification {
    @TempDir
    Path dir

    /** 8 s of 720p H.264 + AAC in FLV, looped by the real publishers beside the hostile ones. */
    @Shared
    Path clip = RtmpSpec.flvClip('rtmp-720p.flv', 8)

    int port = Net.freePort()
    Station station
    List<Process> processes = []
    List<Client> players = []
    ListAppender<ILoggingEvent> logged = new LogList()
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
        processes.each { it.destroyForcibly() }
        players*.close()
        station?.stop()
    }

    /** The station runs {@code script} instead of the plain relay. */
    void restart(String script) {
        station.stop()
        station = Engine.load('relay.groovy', script.stripIndent(), [:])
        station.start(null)
    }

    RtmpServer rtmp() {
        station.network().rtmpServers()[0]
    }

    String url(String key) {
        "rtmp://127.0.0.1:${port}/live/${key}"
    }

    Process ffmpeg(String name, List<String> args) {
        Process p = RtmpSpec.startFfmpeg(dir.resolve("${name}.log"), args)
        processes << p
        p
    }

    /** ffmpeg publishing the clip, looped, to {@code live/key}; returns once the server has the stream. */
    Process publish(String key) {
        Process p = ffmpeg("publish-${key}", ['-re', '-stream_loop', '-1', '-i', clip.toString(), '-c', 'copy', '-f', 'flv',
                                              url(key)])
        assert Net.await(10) { rtmp().isPublished("live/${key}") }
        p
    }

    /** A raw client playing {@code live/key}; it sends nothing after the play command. */
    Client play(String key) {
        def c = new Client(port)
        c.send(CONNECT)
        c.send(command('createStream', 2))
        Thread.sleep(300)
        c.send(command('play', 3, [5] + amfString(key), 1))
        players << c
        c
    }

    /** Direct memory the pooled allocator (the RTMP connections' one) holds. */
    static long direct() {
        PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory()
    }

    static long rss() {
        (new File('/proc/self/status').readLines().find { it.startsWith('VmRSS:') }.split(/\s+/)[1] as long) * 1024
    }

    static String mb(long bytes) {
        String.format('%.1f MB', bytes / 1e6)
    }

    /** Seconds from connecting to the harbor's {@code /radio} to the first byte of audio. */
    static double firstAudioByte(int port) {
        new Socket().withCloseable { s ->
            long t0 = System.nanoTime()
            s.connect(new InetSocketAddress('127.0.0.1', port))
            s.soTimeout = 5000
            s.outputStream.write('GET /radio HTTP/1.0\r\n\r\n'.getBytes(StandardCharsets.ISO_8859_1))
            def in = s.inputStream
            int matched = 0
            while (matched < 4) { // past the headers' blank line
                int b = in.read()
                if (b < 0) throw new EOFException('no audio')
                matched = b == (int) '\r\n\r\n'.charAt(matched) ? matched + 1 : (b == 13 ? 1 : 0)
            }
            if (in.read() < 0) throw new EOFException('no audio')
            (System.nanoTime() - t0) / 1e9
        }
    }

    /** What a raw player receives, read on a thread of its own: bytes, and the longest wait for any. */
    static final class Reading {
        final AtomicLong bytes = new AtomicLong()
        volatile long longestWait
        volatile long measuringFrom = Long.MAX_VALUE
        volatile boolean closed

        Reading(Client c) {
            c.socket.soTimeout = 0
            Thread.startDaemon {
                byte[] b = new byte[65536]
                long last = System.nanoTime()
                try {
                    int r
                    while ((r = c.socket.inputStream.read(b)) >= 0) {
                        long now = System.nanoTime()
                        if (last >= measuringFrom) longestWait = Math.max(longestWait, now - last)
                        last = now
                        bytes.addAndGet(r)
                    }
                } catch (IOException ignored) {
                    // closed
                }
                closed = true
            }
        }

        /** Waits count from now. */
        void measure() {
            longestWait = 0
            measuringFrom = System.nanoTime()
        }

        double longestWaitSeconds() {
            longestWait / 1e9
        }
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

    /** A type-3 chunk header on chunk stream {@code csid} (2..63): the next chunk of its message. */
    static List<Integer> next(int csid) {
        [0xC0 | csid]
    }

    /** Set Chunk Size. */
    static List<Integer> chunkSize(int size) {
        header(2, 4, 1) + [size >>> 24, (size >> 16) & 0xFF, (size >> 8) & 0xFF, size & 0xFF]
    }

    /**
     * {@code rounds} chunks of {@code chunk} bytes on each chunk stream in {@code csids}, in turn,
     * the first round starting a message of {@code length} bytes on each (video, message stream 1).
     */
    static void interleave(Client c, List<Integer> csids, int length, int from, int rounds, byte[] chunk) {
        def out = new BufferedOutputStream(c.socket.outputStream, 1 << 16)
        for (int r = from; r < from + rounds; r++) {
            for (int csid : csids) {
                out.write((r == 0 ? header(csid, length, 9, 1) : next(csid)) as byte[])
                out.write(chunk)
            }
        }
        out.flush()
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

    def "400 strangers each declaring 16.5 MB of messages and sending 3 KB of them hold what they sent: a player and a harbor listener never notice, and the memory comes back"() {
        given: 'a relay with a real publisher, an ffmpeg player and a raw one on it, and a harbor mount'
        int harbor = Net.freePort()
        restart("""
            rtmp.server(port: ${port}, bind: '127.0.0.1')
            output.harbor(mp3(bitrate: 128), sine(), mount: 'radio', port: ${harbor})
        """)
        Process publisher = publish('real')
        Process player = ffmpeg('player', ['-y', '-t', '15', '-i', url('real'), '-c', 'copy', '-f', 'framemd5',
                                           dir.resolve('p.framemd5').toString()])
        Reading raw = new Reading(play('real'))
        Thread.sleep(1500)
        System.gc()
        long direct0 = direct()
        long rss0 = rss()
        // each: a 5.5 MB video message begun on each of three chunk streams (16.5 MB together, what the
        // engine used to reserve at once) and 8 chunks of 128 bytes of each sent, in turn
        def attack = new ByteArrayOutputStream()
        for (int r = 0; r < 8; r++) {
            for (int csid : 3..5) attack.write(((r == 0 ? header(csid, 5_500_000, 9, 1) : next(csid)) + [r] * 128) as byte[])
        }
        byte[] bytes = attack.toByteArray()

        when: 'they come one after another and stay'
        raw.measure()
        long t0 = System.nanoTime()
        List<Client> attackers = (1..400).collect {
            def c = new Client(port)
            c.socket.outputStream.write(bytes)
            c
        }
        double arrival = (System.nanoTime() - t0) / 1e9
        Thread.sleep(500)
        long held = rtmp().pending().used()
        long directDuring = direct()
        long rssDuring = rss()
        List<Double> firstBytes = (1..3).collect { firstAudioByte(harbor) }
        boolean stayed = attackers.every { !it.closedWithin(1) }
        double longestWait = raw.longestWaitSeconds()

        and: 'they leave'
        attackers*.close()
        assert player.waitFor(30, TimeUnit.SECONDS)
        def got = RtmpSpec.hashes(dir.resolve('p.framemd5'))
        boolean released = Net.await(5) { rtmp().pending().used() == 0 }
        Thread.sleep(1000)
        System.gc()
        long directAfter = direct()
        long rssAfter = rss()
        println "400 attackers (${String.format('%.1f', arrival)} s to connect): they held ${mb(held)}; pooled direct " +
                "memory ${mb(direct0)} before, ${mb(directDuring)} during, ${mb(directAfter)} after; RSS ${mb(rss0)}, " +
                "${mb(rssDuring)}, ${mb(rssAfter)}; harbor first audio byte ${firstBytes.collect { String.format('%.3f', it) }} s; " +
                "raw player's longest wait ${String.format('%.3f', longestWait)} s; ffmpeg player ${got.video.size()} video packets"

        then: 'they held what they sent (at most twice), not what they declared, and nobody was refused for it'
        stayed
        held <= 400 * bytes.length * 2
        directDuring - direct0 < 64L << 20

        and: 'the player, the publisher and the harbor never noticed'
        firstBytes.every { it < 0.5 }
        longestWait < 0.5
        !raw.closed
        publisher.isAlive()
        got.video.size() >= 15 * 25 - 10

        and: 'what they held is back'
        released
        directAfter - direct0 < 16L << 20
    }

    def "a connection interleaving big messages is closed once they hold more than maxPending (twice maxMessage), not for what they declare; the publisher beside it carries on"() {
        given:
        Process publisher = publish('real')
        def bad = new Client(port)
        bad.send(chunkSize(65536))
        byte[] chunk = new byte[65536]
        List<Integer> csids = (3..14).toList()

        when: 'twelve chunk streams each begin an 8 MB message and send 64 KiB chunks in turn: 6 MiB in eight rounds'
        interleave(bad, csids, 8_000_000, 0, 8, chunk)
        // what arrived, at most doubled (buffers double as they grow), and the real publisher's message
        // in progress if any, under 1 MiB
        Net.await(3) { rtmp().pending().used() >= 6L << 20 }
        long holding = rtmp().pending().used()
        boolean openThen = !bad.closedWithin(300)

        and: 'more rounds: past 16 MiB held'
        boolean refused = false
        try {
            interleave(bad, csids, 8_000_000, 8, 32, chunk)
        } catch (IOException reset) {
            refused = true
        }
        boolean closed = refused || bad.closedWithin(3000)

        then:
        holding >= 6L << 20 && holding < 13L << 20
        openThen
        closed
        loggedReason("over the connection's limit of ${16 << 20}")
        Net.await(2) { rtmp().pending().used() < 1L << 20 }
        publisher.isAlive()
        rtmp().isPublished('live/real')

        cleanup:
        bad?.close()
    }

    def "all connections together hold no more than maxPendingTotal: the one that would pass it is closed, the others keep theirs"() {
        given: 'maxMessage 1 MiB: maxPending 2 MiB; 4 MiB for all'
        restart("""
            rtmp.server(port: ${port}, bind: '127.0.0.1', maxMessage: 1048576, maxPendingTotal: 4194304)
            output.dummy(blank())
        """)
        List<Client> clients = (1..3).collect { new Client(port) }
        byte[] chunk = new byte[65536]

        when: 'the first two begin two 1 MB messages each and send 768 KiB of each: 1 MB held per message'
        clients.take(2).each { c ->
            c.send(chunkSize(65536))
            interleave(c, [3], 1_000_000, 0, 12, chunk)
            interleave(c, [4], 1_000_000, 0, 12, chunk)
        }
        boolean twoHold = Net.await(10) { rtmp().pending().used() == 4_000_000 }
        and: 'the third does the same'
        boolean refused = false
        try {
            clients[2].send(chunkSize(65536))
            interleave(clients[2], [3], 1_000_000, 0, 12, chunk)
        } catch (IOException reset) {
            refused = true
        }

        then:
        twoHold
        refused || clients[2].closedWithin(3000)
        loggedReason('incomplete messages of all connections would hold more than 4194304 bytes')
        !clients[0].closedWithin(200) && !clients[1].closedWithin(200)
        rtmp().pending().used() == 4_000_000

        when: 'they leave'
        clients*.close()

        then:
        Net.await(3) { rtmp().pending().used() == 0 }
    }

    def "idleTimeout closes a connection that neither publishes nor plays, and a publisher that sends nothing; a real publisher and players, one never sending a byte, stay"() {
        given: 'the connection log at INFO, for the line about a stranger'
        connectionLog.level = Level.INFO
        restart("""
            rtmp.server(port: ${port}, bind: '127.0.0.1', idleTimeout: 2)
            output.dummy(blank())
        """)
        Process publisher = publish('real')
        Process player = ffmpeg('player', ['-y', '-t', '8', '-i', url('real'), '-c', 'copy', '-f', 'framemd5',
                                           dir.resolve('p.framemd5').toString()])
        Reading raw = new Reading(play('real'))

        when: 'one connects and does nothing more; another publishes and sends nothing'
        long t0 = System.nanoTime()
        def idler = new Client(port)
        idler.send(CONNECT)
        idler.send(command('createStream', 2))
        def silent = new Client(port)
        silent.send(CONNECT)
        silent.send(command('createStream', 2))
        Thread.sleep(300)
        silent.send(command('publish', 3, [5] + amfString('silent') + amfString('live'), 1))
        boolean silentPublished = Net.await(2) { rtmp().isPublished('live/silent') }
        boolean idlerClosed = idler.closedWithin(6000)
        double idlerAfter = (System.nanoTime() - t0) / 1e9
        boolean silentClosed = silent.closedWithin(6000)
        double silentAfter = (System.nanoTime() - t0) / 1e9
        long before = raw.bytes.get()
        Thread.sleep(1000)
        long lastSecond = raw.bytes.get() - before
        assert player.waitFor(20, TimeUnit.SECONDS)
        def got = RtmpSpec.hashes(dir.resolve('p.framemd5'))

        then: 'each closed between 2 and 2.5 s after it last did something (and some slack for a loaded machine)'
        idlerClosed
        idlerAfter > 1.9 && idlerAfter < 4
        loggedReason('neither published nor played for 2.0 s')
        silentPublished
        silentClosed
        silentAfter > 1.9 && silentAfter < 5
        loggedReason('published nothing for 2.0 s')
        !rtmp().isPublished('live/silent')

        and: 'the publisher and both players are still there'
        publisher.isAlive()
        !raw.closed
        lastSecond > 100_000
        got.video.size() >= 8 * 25 - 10

        cleanup:
        connectionLog.level = null
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
