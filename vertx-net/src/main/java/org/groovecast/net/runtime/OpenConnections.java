package org.groovecast.net.runtime;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Shareable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The connections our server channels accepted on one Vert.x, so that they are closed while its
 * event loops still run. Left to the loops' own shutdown, a connection open at that moment was at
 * times dropped without its pipeline hearing the end (about one close in ten kept a keep-alive
 * harbor connection's request buffer: reported by Netty's leak detector, and memory that a process
 * running many stations never got back when one of them stopped).
 */
public final class OpenConnections implements Shareable {
    private static final String KEY = "groovecast.openConnections";

    private final Set<Channel> open = ConcurrentHashMap.newKeySet();

    /** A channel forgets itself once closed: one listener per connection, none per read. */
    private final ChannelFutureListener forget = f -> open.remove(f.channel());

    private OpenConnections() {}

    /** Those of {@code vertx}: one set per Vert.x, kept in its local shared data. */
    public static OpenConnections of(Vertx vertx) {
        return vertx.sharedData()
                .<String, OpenConnections>getLocalMap(KEY)
                .computeIfAbsent(KEY, k -> new OpenConnections());
    }

    /** Tracks an accepted connection until it closes. */
    void add(Channel ch) {
        open.add(ch);
        ch.closeFuture().addListener(forget);
    }

    /** Connections open now. */
    public int size() {
        return open.size();
    }

    /**
     * Closes every connection, and waits at most {@code millis} until each one's pipeline has seen
     * its end ({@code channelInactive}, which Netty runs after the close itself, on the loop); a
     * connection accepted meanwhile is closed too. Returns how many were closed.
     */
    public int closeAll(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        List<Channel> closing = new ArrayList<>();
        while (!open.isEmpty()) {
            List<Channel> now = new ArrayList<>(open);
            for (Channel ch : now) ch.close();
            closing.addAll(now);
            if (!awaitUnregistered(now, deadline)) break;
        }
        return closing.size();
    }

    /**
     * A channel is deregistered after its pipeline heard {@code channelInactive}: that is the sign
     * waited for, polled since Netty offers no future for it. Not waited for on a loop that is
     * going away already (nothing would run it), nor from a loop (it would wait for itself).
     */
    private static boolean awaitUnregistered(List<Channel> channels, long deadline) {
        for (Channel ch : channels) {
            if (ch.eventLoop().inEventLoop()) return false;
            while (ch.isRegistered() && !ch.eventLoop().isShuttingDown()) {
                if (System.nanoTime() - deadline > 0) return false;
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }
}
