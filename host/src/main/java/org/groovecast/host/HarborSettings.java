package org.groovecast.host;

import org.groovecast.net.harbor.clients.HarborLimits;
import org.groovecast.net.harbor.clients.TrustedProxies;
import org.groovecast.net.harbor.sessions.AccessLog;

/**
 * What the harbor ports accept, read from {@code settings.harbor.*}; applied again by each
 * (re)load.
 */
final class HarborSettings {
    private HarborSettings() {}

    static HarborLimits limits(Settings settings) {
        return new HarborLimits(
                seconds(settings, "harbor.headTimeout"),
                seconds(settings, "harbor.idleTimeout"),
                settings.integer("harbor.maxConnections"),
                settings.integer("harbor.maxConnectionsPerAddress"),
                settings.bool("harbor.followSymlinks"),
                settings.integer("harbor.maxAuthFailures"),
                seconds(settings, "harbor.authFailureWindow"),
                seconds(settings, "harbor.handlerTimeout"));
    }

    /** The proxies whose forwarding headers name the client ({@code harbor.trustedProxies}). */
    static TrustedProxies trustedProxies(Settings settings) {
        return TrustedProxies.parse(settings.get("harbor.trustedProxies"));
    }

    /**
     * The access log as {@code harbor.accessLog} and {@code harbor.accessLog.hashAddresses} ask,
     * its file given to logback ({@link AccessLogFile}).
     */
    static AccessLog accessLog(Settings settings) {
        String file = settings.string("harbor.accessLog");
        AccessLogFile.use(file);
        return AccessLog.of(!file.isEmpty(), settings.bool("harbor.accessLog.hashAddresses"));
    }

    private static long seconds(Settings settings, String key) {
        return (long) (settings.number(key) * 1e9);
    }
}
