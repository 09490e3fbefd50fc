package org.groovecast.net.harbor.clients;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections a harbor port holds, in all and per client address, against its caps: a client
 * over a cap is answered 503 and let go instead of taking one more file descriptor, so that one
 * greedy address cannot starve the others and the process never runs out of descriptors.
 */
public final class ConnectionCount {
    private static final Logger log = LoggerFactory.getLogger(ConnectionCount.class);

    /** Why a connection was refused, if it was. */
    public enum Admission {
        ADMITTED,
        PORT_FULL,
        ADDRESS_FULL
    }

    private final int port;
    private final AtomicInteger total = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, AtomicInteger> byAddress =
            new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();

    public ConnectionCount(int port) {
        this.port = port;
    }

    /**
     * Counts a new connection from {@code address} unless that would pass a cap; release() it when
     * it closes.
     */
    public Admission acquire(InetAddress address, HarborLimits limits) {
        accepted.incrementAndGet();
        if (total.incrementAndGet() > limits.maxConnections()) {
            total.decrementAndGet();
            return refuse(Admission.PORT_FULL, address, limits);
        }
        if (!countUnder(address, limits.maxConnectionsPerAddress())) {
            total.decrementAndGet();
            return refuse(Admission.ADDRESS_FULL, address, limits);
        }
        return Admission.ADMITTED;
    }

    /**
     * Counts a new connection from a trusted proxy in the port's total only: it counts against an
     * address once a request names its client ({@link #attribute}).
     */
    public Admission acquireUnattributed(InetAddress proxy, HarborLimits limits) {
        accepted.incrementAndGet();
        if (total.incrementAndGet() > limits.maxConnections()) {
            total.decrementAndGet();
            return refuse(Admission.PORT_FULL, proxy, limits);
        }
        return Admission.ADMITTED;
    }

    /**
     * Moves a connection counted under {@code from} (null: under none yet) to {@code to}, the
     * client a proxy named, unless {@code to} holds its cap already: then it stays where it was.
     */
    public Admission attribute(InetAddress from, InetAddress to, HarborLimits limits) {
        if (!countUnder(to, limits.maxConnectionsPerAddress()))
            return refuse(Admission.ADDRESS_FULL, to, limits);
        if (from != null) uncount(from);
        return Admission.ADMITTED;
    }

    /** An admitted connection closed; {@code address} is where it was counted, or null. */
    public void release(InetAddress address) {
        total.decrementAndGet();
        if (address != null) uncount(address);
    }

    private boolean countUnder(InetAddress address, int cap) {
        boolean[] over = new boolean[1];
        // compute() counts and checks at once, against a concurrent release() removing the entry.
        byAddress.compute(
                address,
                (a, n) -> {
                    if (n == null) n = new AtomicInteger();
                    if (n.get() >= cap) over[0] = true;
                    else n.incrementAndGet();
                    return n.get() == 0 ? null : n;
                });
        return !over[0];
    }

    private void uncount(InetAddress address) {
        // The last connection of an address removes its entry, so that the map holds only connected
        // clients.
        byAddress.computeIfPresent(address, (a, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    /**
     * Connections accepted since the port was made, refused ones included (Icecast's {@code
     * connections}).
     */
    public long accepted() {
        return accepted.get();
    }

    public int total() {
        return total.get();
    }

    public int from(InetAddress address) {
        AtomicInteger n = byAddress.get(address);
        return n == null ? 0 : n.get();
    }

    private Admission refuse(Admission why, InetAddress address, HarborLimits limits) {
        // A flood is refused by the thousand: one line for the first and then every thousandth.
        long n = refused.getAndIncrement();
        if (n % 1000 == 0) {
            if (why == Admission.PORT_FULL) {
                log.warn(
                        "harbor: port {} holds {} connections (settings.harbor.maxConnections); answering 503 to {} "
                                + "({} refused so far)",
                        port,
                        limits.maxConnections(),
                        address.getHostAddress(),
                        n + 1);
            } else {
                log.warn(
                        "harbor: {} holds {} connections to port {} (settings.harbor.maxConnectionsPerAddress); "
                                + "answering 503 ({} refused so far)",
                        address.getHostAddress(),
                        limits.maxConnectionsPerAddress(),
                        port,
                        n + 1);
            }
        }
        return why;
    }
}
