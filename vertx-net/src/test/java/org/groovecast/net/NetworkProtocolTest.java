package org.groovecast.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A listening protocol the network was never told of gets the reload transaction every server gets:
 * bound at start, carried with its connections across a reload that declares it again, closed by
 * one that does not, left as it was by one that fails.
 */
class NetworkProtocolTest {
    @Test
    void aNewProtocolIsBoundCarriedAcrossAReloadAndClosedWhenNoLongerDeclared() throws Exception {
        int port = freePort();
        Network net = new Network("127.0.0.1", 1 << 16, null);
        try {
            EchoServer echo = net.declare(EchoServer.class, port, () -> new EchoServer(port));
            net.start(1);
            assertTrue(echo.isListening());
            assertEquals(List.of(echo), net.servers());
            try (Socket before = new Socket("127.0.0.1", port)) {
                assertEquals('a', echoed(before, 'a'));

                net.beginLoad();
                assertSame(
                        echo,
                        net.declare(EchoServer.class, port, () -> new EchoServer(port)),
                        "declared again: the one running is carried");
                net.start(1);
                assertEquals('b', echoed(before, 'b'), "its connection stayed across the reload");

                net.beginLoad(); // a script that no longer declares it
                net.start(1);
                assertFalse(echo.isListening(), "closed when the new script took over");
                assertTrue(net.servers().isEmpty());
            }
        } finally {
            net.close();
        }
    }

    @Test
    void aFailedLoadLeavesTheServersAsTheyWereAndDropsWhatOnlyItDeclared() throws Exception {
        int port = freePort();
        int other = freePort();
        Network net = new Network("127.0.0.1", 1 << 16, null);
        try {
            EchoServer echo = net.declare(EchoServer.class, port, () -> new EchoServer(port));
            net.start(1);

            net.beginLoad();
            net.declare(EchoServer.class, other, () -> new EchoServer(other));
            net.abortLoad();

            assertEquals(List.of(echo), net.servers());
            net.beginLoad();
            net.declare(EchoServer.class, port, () -> new EchoServer(port));
            net.start(1);
            assertTrue(echo.isListening());
        } finally {
            net.close();
        }
    }

    private static int echoed(Socket s, char c) throws IOException {
        s.getOutputStream().write(c);
        s.getOutputStream().flush();
        return s.getInputStream().read();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
