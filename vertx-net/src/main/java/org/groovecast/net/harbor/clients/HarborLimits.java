package org.groovecast.net.harbor.clients;

/**
 * What a harbor port accepts from its clients ({@code settings.harbor.*}): how long a request head
 * and a keep-alive wait may take, how many connections it holds in all and per client address,
 * whether static files may be symbolic links out of their directory, and how many failed logins an
 * address gets before it is refused for a while.
 *
 * @param headTimeoutNanos time to send a whole request head, from the connection or its first byte
 * @param idleTimeoutNanos time a keep-alive connection may wait for its next request, or a body for
 *     its next byte
 * @param authFailureWindowNanos the window over which failed logins count, and the time an address
 *     is then refused
 * @param handlerTimeoutNanos time an off-loop route's handler has to answer before the request gets
 *     503
 */
public record HarborLimits(
        long headTimeoutNanos,
        long idleTimeoutNanos,
        int maxConnections,
        int maxConnectionsPerAddress,
        boolean followSymlinks,
        int maxAuthFailures,
        long authFailureWindowNanos,
        long handlerTimeoutNanos) {
    public static final HarborLimits DEFAULT =
            new HarborLimits(
                    10_000_000_000L,
                    30_000_000_000L,
                    4096,
                    256,
                    false,
                    10,
                    60_000_000_000L,
                    30_000_000_000L);

    public HarborLimits {
        positive("harbor.headTimeout", headTimeoutNanos);
        positive("harbor.idleTimeout", idleTimeoutNanos);
        positive("harbor.maxConnections", maxConnections);
        positive("harbor.maxConnectionsPerAddress", maxConnectionsPerAddress);
        positive("harbor.maxAuthFailures", maxAuthFailures);
        positive("harbor.authFailureWindow", authFailureWindowNanos);
        positive("harbor.handlerTimeout", handlerTimeoutNanos);
    }

    private static void positive(String name, long value) {
        if (value <= 0) throw new IllegalArgumentException("settings." + name + " must be above 0");
    }
}
