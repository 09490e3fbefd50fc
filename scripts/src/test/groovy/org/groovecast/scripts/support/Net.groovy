package org.groovecast.scripts.support

import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path

/** Raw sockets and free ports for the network specs. */
final class Net {
    /** The ports {@link #freePort} gave in the last minutes, in any test JVM of this build: "port millis" lines. */
    private static final Path GIVEN = Path.of('target', 'free-ports.txt').toAbsolutePath()
    private static final Path GIVEN_LOCK = Path.of('target', 'free-ports.lock').toAbsolutePath()
    private static final long REMEMBERED_MS = 10 * 60 * 1000

    /**
     * A port nothing listens on, for a peer or a station to take. The kernel draws it at random, and
     * the specs run in several JVMs at once (scripts/pom.xml): a port another JVM was given may not
     * be taken yet, or be free for a moment while a spec restarts its server on it. So the draw is
     * repeated until it gives a port that no JVM of this build was given in the last ten minutes.
     */
    static int freePort() {
        ForkLock.holding(GIVEN_LOCK) {
            long now = System.currentTimeMillis()
            Map<Integer, Long> given = [:]
            if (Files.exists(GIVEN)) {
                Files.readAllLines(GIVEN)*.tokenize().findAll { it.size() == 2 && now - (it[1] as long) < REMEMBERED_MS }
                        .each { given[it[0] as int] = it[1] as long }
            }
            int port = new ServerSocket(0).withCloseable { it.localPort }
            for (int tries = 0; tries < 100 && given.containsKey(port); tries++) port = new ServerSocket(0).withCloseable { it.localPort }
            given[port] = now
            Files.writeString(GIVEN, given.collect { p, at -> "${p} ${at}\n" }.join(''))
            port
        }
    }

    /** Sends {@code request} as is and returns the answer: until the server closes, or {@code timeoutMs} passes. */
    static String raw(int port, String request, int timeoutMs = 3000) {
        rawFrom('127.0.0.1', port, request, timeoutMs)
    }

    /** A socket to the station's port from the local address {@code from} (any of 127.0.0.0/8 works on Linux). */
    static Socket connectFrom(String from, int port) {
        def s = new Socket()
        s.bind(new InetSocketAddress(from, 0))
        s.connect(new InetSocketAddress('127.0.0.1', port), 3000)
        s
    }

    /** {@link #raw} from the local address {@code from}, so that per-address limits can be told apart. */
    static String rawFrom(String from, int port, String request, int timeoutMs = 3000) {
        connectFrom(from, port).withCloseable { s ->
            s.soTimeout = timeoutMs
            s.outputStream.write(request.getBytes(StandardCharsets.ISO_8859_1))
            s.outputStream.flush()
            def out = new ByteArrayOutputStream()
            byte[] buf = new byte[8192]
            long end = System.nanoTime() + timeoutMs * 1_000_000L
            try {
                int n
                // a stream (a listener mount) never ends by itself: stop at the deadline
                while (System.nanoTime() < end && (n = s.inputStream.read(buf)) > 0) out.write(buf, 0, n)
            } catch (SocketTimeoutException ignored) {
                // whatever came is the answer
            }
            out.toString(StandardCharsets.ISO_8859_1)
        }
    }

    static int status(String response) {
        response.readLines()[0].split(' ')[1] as int
    }

    /** The latency in ms of each of {@code n} {@code GET /ping} requests made 150 ms apart, each answered {@code pong}. */
    static List pingLatencies(int port, int n = 10) {
        (1..n).collect {
            long a = System.nanoTime()
            assert raw(port, "GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n").endsWith('pong')
            Thread.sleep(150)
            (System.nanoTime() - a) / 1e6 - 150
        }
    }

    /** Waits until {@code condition} holds, up to {@code seconds}. */
    static boolean await(double seconds, Closure<Boolean> condition) {
        long end = System.nanoTime() + (long) (seconds * 1e9)
        while (System.nanoTime() < end) {
            if (condition()) return true
            Thread.sleep(50)
        }
        condition()
    }
}
