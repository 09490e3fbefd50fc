package org.groovecast.net.admission;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The clients a served directory's admission let in (an HLS folder's players), for its cap, time
 * limit and admit function: HLS is a series of short requests, so a client is its address and
 * agent, present from its first admitted request until {@link #IDLE_NANOS} pass without one (a
 * player asks for the playlist at least once a target duration, seconds apart). Its time limit runs
 * from that first request; one past it is refused until it has been gone that long. (The port's
 * listener sessions, for the access log and the admin views, keep their own account.)
 */
public final class AdmittedClients {
    /** How long a client may go without a request and still be the same listener. */
    public static final long IDLE_NANOS = 30_000_000_000L;

    /** One client: when it was let in, and when it asked last. */
    public static final class Client {
        private final long start;
        private volatile long last;

        Client(long now) {
            this.start = now;
            this.last = now;
        }

        /** {@link System#nanoTime} when the client was let in. */
        public long start() {
            return start;
        }
    }

    private final ConcurrentHashMap<String, Client> clients = new ConcurrentHashMap<>();
    private long sweptAt = System.nanoTime();

    /** The key of a client: its address's text and its agent. */
    public static String key(String address, String agent) {
        return agent == null ? address : address + '\n' + agent;
    }

    /** The present client {@code key}, marked as asking {@code now}; null when it is not. */
    public Client find(String key, long now) {
        Client c = clients.get(key);
        if (c == null || now - c.last > IDLE_NANOS) return null;
        c.last = now;
        return c;
    }

    /**
     * Lets client {@code key} in from {@code now}, unless {@code max} (0: no cap) are present;
     * returns it, or null when there is no place. One at a time, so that the cap holds: clients
     * arrive once a listening, not once a request.
     */
    public synchronized Client start(String key, long now, int max) {
        Client c = find(key, now);
        if (c != null) return c;
        if (max > 0 && clients.size() >= max) sweep(now);
        else if (now - sweptAt > IDLE_NANOS) sweep(now); // a table of the gone would grow
        if (max > 0 && clients.size() >= max) return null;
        c = new Client(now);
        clients.put(key, c);
        return c;
    }

    /** Whether {@code max} clients (0: no cap) are present, those gone counted out. */
    public synchronized boolean full(long now, int max) {
        if (max <= 0 || clients.size() < max) return false;
        sweep(now);
        return clients.size() >= max;
    }

    /** Clients present now. */
    public synchronized int present(long now) {
        sweep(now);
        return clients.size();
    }

    private void sweep(long now) {
        sweptAt = now;
        clients.values().removeIf(c -> now - c.last > IDLE_NANOS);
    }
}
