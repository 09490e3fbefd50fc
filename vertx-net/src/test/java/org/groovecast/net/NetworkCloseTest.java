package org.groovecast.net;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.time.Duration;
import org.groovecast.net.runtime.NetRuntime;
import org.junit.jupiter.api.Test;

/** Closing a station's network never hangs, whatever state its event loops are in, and is final. */
class NetworkCloseTest {
    @Test
    void closesWhenItsEventLoopsAreGoneAlready() {
        Network net = new Network("127.0.0.1", 1 << 16, null);
        net.harbor(0);
        net.start(1);
        net.vertx().close().await(); // the loops end under the harbor's server channel
        assertTimeoutPreemptively(Duration.ofSeconds(5), net::close);
    }

    @Test
    void closingTwiceReturnsAndAClosedNetworkStartsNothingAgain() {
        Network net = new Network("127.0.0.1", 1 << 16, null);
        int port = freePort();
        net.harbor(port);
        net.start(1);
        assertTimeoutPreemptively(
                Duration.ofSeconds(5),
                () -> {
                    net.close();
                    net.close();
                });
        assertTrue(net.isClosed());
        assertTrue(portFree(port), "the harbor let its port go");
        assertThrows(IllegalStateException.class, () -> net.start(1));
        assertThrows(IllegalStateException.class, net::vertx);
    }

    @Test
    void aRuntimeClosedTwiceReturns() {
        NetRuntime runtime = NetRuntime.start(1);
        assertTimeoutPreemptively(
                Duration.ofSeconds(5),
                () -> {
                    runtime.close();
                    runtime.close(1);
                });
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean portFree(int port) {
        try (ServerSocket s = new ServerSocket(port)) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
