package org.groovecast.net.harbor.clients;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failed logins per client address on one harbor port (source passwords, listener logins, {@code
 * /admin/metadata}, the control token): an address that fails {@code
 * settings.harbor.maxAuthFailures} times within {@code settings.harbor.authFailureWindow} is
 * answered 429 for the rest of that window, without its credentials being checked, so that
 * passwords cannot be guessed at network speed. Other addresses are not affected.
 */
public final class AuthFailures {
    private static final Logger log = LoggerFactory.getLogger(AuthFailures.class);

    /**
     * Addresses tracked before expired windows are swept; a flood of addresses cannot grow the map
     * without end.
     */
    private static final int SWEEP_ABOVE = 4096;

    private static final int MAX_TRACKED = 65_536;

    /** The failures of one address in its current window. */
    private static final class Window {
        final long start;
        final AtomicInteger failures = new AtomicInteger();

        Window(long start) {
            this.start = start;
        }
    }

    private final int port;
    private final ConcurrentHashMap<InetAddress, Window> windows = new ConcurrentHashMap<>();

    public AuthFailures(int port) {
        this.port = port;
    }

    /** Seconds {@code address} must still wait before it may log in again; 0 when it may now. */
    public long retryAfter(InetAddress address, HarborLimits limits) {
        Window w = windows.get(address);
        if (w == null) return 0;
        long now = System.nanoTime();
        long end = w.start + limits.authFailureWindowNanos();
        if (now - end >= 0 || w.failures.get() < limits.maxAuthFailures()) return 0;
        return Math.max(1, (end - now + 999_999_999L) / 1_000_000_000L);
    }

    /** {@code address} gave wrong credentials. */
    public void failed(InetAddress address, HarborLimits limits) {
        long now = System.nanoTime();
        if (windows.size() > SWEEP_ABOVE) sweep(now, limits);
        if (windows.size() >= MAX_TRACKED && !windows.containsKey(address)) return;
        Window w =
                windows.compute(
                        address,
                        (a, old) ->
                                old == null || now - old.start >= limits.authFailureWindowNanos()
                                        ? new Window(now)
                                        : old);
        int n = w.failures.incrementAndGet();
        if (n == limits.maxAuthFailures()) {
            log.warn(
                    "harbor: {} failed to log in {} times on port {}; refused (429) for {} s "
                            + "(settings.harbor.maxAuthFailures, settings.harbor.authFailureWindow)",
                    address.getHostAddress(),
                    n,
                    port,
                    Math.round(limits.authFailureWindowNanos() / 1e9));
        }
    }

    private void sweep(long now, HarborLimits limits) {
        windows.values().removeIf(w -> now - w.start >= limits.authFailureWindowNanos());
    }
}
