package org.groovecast.net.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NetRuntimeTest {
    @Test
    void runsOnNativeEpollAndCarriesBytes() throws Exception {
        try (NetRuntime net = NetRuntime.start(1)) {
            assertTrue(net.isNative(), "native epoll transport must be active on Linux x86_64");
            NetServer server =
                    net.vertx()
                            .createNetServer()
                            .connectHandler(socket -> socket.handler(socket::write))
                            .listen(0, "127.0.0.1")
                            .await();
            NetClient client = net.vertx().createNetClient();
            CompletableFuture<String> echoed = new CompletableFuture<>();
            client.connect(server.actualPort(), "127.0.0.1")
                    .onSuccess(
                            s -> {
                                s.handler(b -> echoed.complete(b.toString()));
                                s.write(Buffer.buffer("ping"));
                            })
                    .onFailure(echoed::completeExceptionally);
            assertEquals("ping", echoed.get(5, TimeUnit.SECONDS));
            server.close().await();
        }
    }
}
