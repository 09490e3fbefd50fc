package org.groovecast.net.runtime;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's Vert.x instance: every socket of a station lives on its event loops, over native
 * epoll so that a wait costs what is ready, not what is watched. Falling back to NIO works but is
 * logged as a warning, since idle listeners then cost CPU on every loop turn.
 */
public final class NetRuntime implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NetRuntime.class);

    private final Vertx vertx;

    private NetRuntime(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Starts Vert.x with {@code eventLoops} loops, preferring the native epoll transport. */
    public static NetRuntime start(int eventLoops) {
        VertxOptions options =
                new VertxOptions().setPreferNativeTransport(true).setEventLoopPoolSize(eventLoops);
        Vertx vertx = Vertx.builder().with(options).build();
        if (vertx.isNativeTransportEnabled()) {
            log.info("network: native epoll transport, {} event loop(s)", eventLoops);
        } else {
            Throwable why = vertx.unavailableNativeTransportCause();
            log.warn(
                    "network: native transport unavailable ({}), falling back to NIO",
                    why == null ? "unknown" : why.toString());
        }
        return new NetRuntime(vertx);
    }

    public Vertx vertx() {
        return vertx;
    }

    public boolean isNative() {
        return vertx.isNativeTransportEnabled();
    }

    @Override
    public void close() {
        close(10);
    }

    /**
     * Stops the event loops, waiting at most {@code seconds} for them (a close that cannot finish
     * must not hold up the engine's stop); closing again returns once the first close is done.
     */
    public void close(long seconds) {
        // Our connections first, while the loops that run their pipelines still run.
        OpenConnections.of(vertx).closeAll(Math.min(2000, TimeUnit.SECONDS.toMillis(seconds)));
        try {
            vertx.close().await(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            log.warn("network: event loops still closing after {} s; going on", seconds);
        } catch (RuntimeException e) {
            log.warn("network: closing the event loops failed: {}", e.toString());
        }
    }
}
