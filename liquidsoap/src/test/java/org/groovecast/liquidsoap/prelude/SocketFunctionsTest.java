package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** socket.unix.*, socket.internet_address.*, socket.address.*, host.of_name. */
class SocketFunctionsTest {
    @TempDir Path dir;

    private static String read(SocketChannel c) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(64);
        int n = c.read(b);
        return new String(b.array(), 0, Math.max(n, 0), StandardCharsets.UTF_8);
    }

    @Test
    void addressesAreLiquidsoaps() {
        assertEquals(
                "(true, \"::\", \"::1\", false, \"127.0.0.1\", true, 80, \"127.0.0.1:80\", \"[::1]:8000\")",
                Liq.value(
                        "a = socket.internet_address.ipv6.any\n"
                                + "let [h] = null.get(host.of_name(\"localhost\")).addresses\n"
                                + "(a.is_ipv6, a.to_string(), socket.internet_address.ipv6.loopback.to_string(),"
                                + " h.is_ipv6, socket.internet_address.loopback.to_string(),"
                                + " host.of_name(\"no-such-host.invalid\") == null,"
                                + " socket.address.internet_address(h, 80).port,"
                                + " socket.address.internet_address(h, 80).to_string(),"
                                + " socket.address.internet_address(socket.internet_address.ipv6.loopback, 8000).to_string())"));
        Registered.withTypes("socket.unix.listen", "socket.unix.client", "host.of_name");
    }

    @Test
    void aClientReadsAndWritesAndWaits() throws Exception {
        Path path = dir.resolve("s");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(path));
            CompletableFuture<String> peer =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try (SocketChannel c = server.accept()) {
                                    String got = read(c);
                                    Thread.sleep(200); // the script waits for this
                                    c.write(
                                            ByteBuffer.wrap(
                                                    "pong".getBytes(StandardCharsets.UTF_8)));
                                    return got;
                                } catch (Exception e) {
                                    throw new RuntimeException(e);
                                }
                            });
            assertEquals(
                    "(\"unix\", \"pong\", false, true)",
                    Liq.value(
                            "s = socket.unix.client(\""
                                    + path
                                    + "\")\n"
                                    + "s.write(\"ping\")\n"
                                    + "got = ref(\"\")\n"
                                    + "s.read.wait(fun () -> got := s.read())\n"
                                    + "n = ref(0)\n"
                                    + "while got() == \"\" and n() < 500 do thread.pause(0.01) n := n() + 1 end\n"
                                    + "before = s.closed()\n"
                                    + "s.close()\n"
                                    + "(s.type, got(), before, s.closed())"));
            assertEquals("ping", peer.get());
        }
    }

    @Test
    void aListenerTakesOneClient() throws Exception {
        Path path = dir.resolve("l");
        CompletableFuture<String> client =
                CompletableFuture.supplyAsync(
                        () -> {
                            for (int i = 0; i < 500; i++) {
                                try (SocketChannel c =
                                        SocketChannel.open(UnixDomainSocketAddress.of(path))) {
                                    String got = read(c);
                                    c.write(
                                            ByteBuffer.wrap(
                                                    "back".getBytes(StandardCharsets.UTF_8)));
                                    return got;
                                } catch (java.io.IOException notYet) {
                                    try {
                                        Thread.sleep(10);
                                    } catch (InterruptedException e) {
                                        throw new RuntimeException(e);
                                    }
                                } catch (Exception e) {
                                    throw new RuntimeException(e);
                                }
                            }
                            return "never connected";
                        });
        assertEquals(
                "\"back\"",
                Liq.value(
                        "s = socket.unix.listen(\""
                                + path
                                + "\")\n"
                                + "s.write(\"done!\")\n"
                                + "r = s.read()\n"
                                + "s.close()\n"
                                + "r"));
        assertEquals("done!", client.get());
    }
}
