package org.groovecast.scripts.support

/**
 * A TCP peer that accepts every connection and never reads from it, with a small receive buffer
 * so that a writer to it blocks within a second: the slow or stuck receiver of output tests.
 */
final class SilentPeer implements Closeable {
    final ServerSocket server = new ServerSocket()
    /** The connections taken so far, held open unread. */
    final List<Socket> accepted = Collections.synchronizedList([])
    private final Thread acceptor

    SilentPeer(int receiveBuffer) {
        server.receiveBufferSize = receiveBuffer
        server.bind(new InetSocketAddress('127.0.0.1', 0))
        acceptor = Thread.startDaemon {
            try {
                while (true) accepted << server.accept()
            } catch (IOException ignored) {
            }
        }
    }

    int getPort() { server.localPort }

    @Override
    void close() {
        server.close()
        accepted.each { it.close() }
        acceptor.join(1000)
    }
}
