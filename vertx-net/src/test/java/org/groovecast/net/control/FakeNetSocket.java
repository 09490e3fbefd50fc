package org.groovecast.net.control;

import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * A NetSocket that takes what is written, pauses and closes when told, with no network under it.
 */
final class FakeNetSocket {
    final List<String> written = new ArrayList<>();
    Handler<Buffer> handler;
    boolean closed;
    boolean paused;
    final NetSocket proxy =
            (NetSocket)
                    Proxy.newProxyInstance(
                            NetSocket.class.getClassLoader(),
                            new Class<?>[] {NetSocket.class},
                            (self, method, args) -> {
                                switch (method.getName()) {
                                    case "handler" -> handler = cast(args[0]);
                                    case "write" -> {
                                        if (closed) fail("written after close: " + args[0]);
                                        written.add(args[0].toString());
                                        return Future.succeededFuture();
                                    }
                                    case "close" -> {
                                        closed = true;
                                        return Future.succeededFuture();
                                    }
                                    case "pause" -> paused = true;
                                    case "resume" -> paused = false;
                                    case "writeQueueFull" -> {
                                        return false;
                                    }
                                    case "hashCode" -> {
                                        return System.identityHashCode(self);
                                    }
                                    case "equals" -> {
                                        return self == args[0];
                                    }
                                    case "toString" -> {
                                        return "FakeNetSocket";
                                    }
                                    default -> {}
                                }
                                return method.getReturnType().isInstance(self) ? self : null;
                            });

    /** Sends {@code text} as the client would. */
    void send(String text) {
        handler.handle(Buffer.buffer(text));
    }

    @SuppressWarnings("unchecked")
    private static Handler<Buffer> cast(Object h) {
        return (Handler<Buffer>) h;
    }
}
