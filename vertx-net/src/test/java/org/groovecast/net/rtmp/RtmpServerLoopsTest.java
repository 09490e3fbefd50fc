package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.groovecast.net.runtime.NetRuntime;
import org.junit.jupiter.api.Test;

/**
 * Where the RTMP server's connections are served: on one event loop unless the script spreads them
 * ({@code rtmp.server(eventLoops: 0)}), so that a publisher's messages reach its players on the
 * thread that read them.
 */
class RtmpServerLoopsTest {
    /** How many event loops serve {@code n} connections to a server of a two-loop runtime. */
    private static int loops(Boolean oneLoop, int n) throws Exception {
        NetRuntime runtime = NetRuntime.start(2);
        RtmpServer server = new RtmpServer(0, "127.0.0.1");
        if (oneLoop != null) server.oneLoop(oneLoop);
        List<Socket> clients = new ArrayList<>();
        try {
            server.listen(runtime.vertx()).await();
            for (int i = 0; i < n; i++) clients.add(new Socket("127.0.0.1", server.actualPort()));
            long end = System.nanoTime() + 5_000_000_000L;
            while (server.connectionLoops().size() < n && System.nanoTime() < end) Thread.sleep(10);
            assertEquals(n, server.connectionLoops().size(), "every connection accepted");
            return new HashSet<>(server.connectionLoops()).size();
        } finally {
            for (Socket s : clients) s.close();
            server.close().await();
            runtime.close();
        }
    }

    @Test
    void oneLoopByDefaultAllOfThemWhenSpread() throws Exception {
        assertEquals(1, loops(null, 4), "the default");
        assertEquals(2, loops(false, 4), "eventLoops: 0");
    }
}
