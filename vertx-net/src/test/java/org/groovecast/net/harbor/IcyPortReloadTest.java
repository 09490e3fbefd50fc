package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelHandlerContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.groovecast.net.Network;
import org.groovecast.net.harbor.http.RequestHead;
import org.junit.jupiter.api.Test;

/**
 * A reload that adds icy: true to a port already listening, and then fails, lets port + 1 go again.
 */
class IcyPortReloadTest {
    private record Ingest(String path) implements HarborIngest {
        @Override
        public Login login(String user, String password) {
            return Login.refused(user);
        }

        @Override
        public Login icyLogin(String password) {
            return Login.refused("source");
        }

        @Override
        public double authTimeout() {
            return 1;
        }

        @Override
        public Session connect(
                RequestHead head, ChannelHandlerContext ctx, String peer, Login login) {
            return null;
        }

        @Override
        public Session connect(
                RequestHead head,
                String contentType,
                ChannelHandlerContext ctx,
                String peer,
                Login login,
                Answer answer) {
            return null;
        }

        @Override
        public int adminMetadata(Map<String, String> params) {
            return 404;
        }
    }

    @Test
    void aFailedReloadThatBoundPortPlusOneClosesIt() throws IOException {
        int port = freePair();
        Network net = new Network("127.0.0.1", 1 << 16, null);
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            HarborServer h = net.harbor(port);
            h.addIngest(new Ingest("/live"));
            net.start(1);
            assertTrue(free(port + 1));

            net.beginLoad();
            Ingest live = new Ingest("/live");
            h.addIngest(live);
            h.addIcyIngest(live);
            net.rtmp(
                    taken.getLocalPort(),
                    "127.0.0.1"); // bound after the harbors: this fails the reload
            assertThrows(IllegalStateException.class, () -> net.start(1));
            net.abortLoad();

            assertTrue(free(port + 1), "the failed reload's port + 1 is let go");
            assertFalse(free(port), "the station on air keeps its port");
        } finally {
            net.close();
        }
    }

    /** A port whose next one is free too. */
    private static int freePair() throws IOException {
        for (int i = 0; i < 50; i++) {
            int p;
            try (ServerSocket s = new ServerSocket(0)) {
                p = s.getLocalPort();
            }
            if (p < 65535 && free(p + 1)) return p;
        }
        throw new IllegalStateException("no two free ports in a row");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
