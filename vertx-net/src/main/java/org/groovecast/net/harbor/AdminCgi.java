package org.groovecast.net.harbor;

import java.util.Map;

/**
 * Shoutcast v1's title update, {@code GET /admin.cgi?pass=...&mode=updinfo&song=...}, which its
 * source clients send to the server's port (and some to port + 1): it names no mount, so it goes
 * to the live input that takes Shoutcast sources on that port ({@code icy: true}), or to the one
 * its {@code mount} parameter names (Icecast's form of it). The password is checked as the ICY
 * client's password line is ({@link HarborIngest#icyLogin}).
 */
final class AdminCgi {
    static final String PATH = "/admin.cgi";

    /** The live input an update is for, or the status and text to answer when there is none. */
    record Target(HarborIngest ingest, int status, String message) {
    }

    private AdminCgi() {
    }

    static Target target(HarborServer server, Map<String, String> params) {
        String mount = params.get("mount");
        HarborIngest in = mount == null || mount.isEmpty() ? server.icyIngest()
                : server.ingest(mount.startsWith("/") ? mount : "/" + mount);
        if (in == null) {
            return new Target(null, 404, mount == null || mount.isEmpty()
                    ? "no input.harbor with icy: true on this port" : "no live input on " + mount);
        }
        return new Target(in, 200, null);
    }
}
