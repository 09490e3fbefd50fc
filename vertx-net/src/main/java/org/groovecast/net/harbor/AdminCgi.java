package org.groovecast.net.harbor;

import java.net.InetAddress;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.groovecast.net.harbor.http.Responses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shoutcast v1's title update, {@code GET /admin.cgi?pass=...&mode=updinfo&song=...}, which its
 * source clients send to the server's port (and some to port + 1): it names no mount, so it goes to
 * the live input that takes Shoutcast sources on that port ({@code icy: true}), or to the one its
 * {@code mount} parameter names (Icecast's form of it). The password is checked as the ICY client's
 * password line is ({@link HarborIngest#icyLogin}). Also how an authorized title update ({@code
 * /admin/metadata} too) is answered.
 */
final class AdminCgi {
    private static final Logger log = LoggerFactory.getLogger(AdminCgi.class);
    static final String PATH = "/admin.cgi";

    /** What a title update needs of the connection it came on, in that connection's protocol. */
    interface Replies {
        /**
         * Answers 429 if the client's address failed too many logins lately; returns whether it
         * did.
         */
        boolean refusedForFailures();

        /**
         * Runs {@code work} off the loop, the connection's reads paused; {@code then} on the loop
         * unless it closed.
         */
        <T> void offLoop(long timeoutNanos, Supplier<T> work, Consumer<OffLoopCall.Result<T>> then);

        /** Answers with {@code status} and a line of text. */
        void reply(int status, String text);
    }

    /** The live input an update is for, or the status and text to answer when there is none. */
    record Target(HarborIngest ingest, int status, String message) {}

    private AdminCgi() {}

    static Target target(HarborServer server, Map<String, String> params) {
        String mount = params.get("mount");
        HarborIngest in =
                mount == null || mount.isEmpty()
                        ? server.icyIngest()
                        : server.ingest(mount.startsWith("/") ? mount : "/" + mount);
        if (in == null) {
            return new Target(
                    null,
                    404,
                    mount == null || mount.isEmpty()
                            ? "no input.harbor with icy: true on this port"
                            : "no live input on " + mount);
        }
        return new Target(in, 200, null);
    }

    /**
     * A request for {@code /admin.cgi} with its query {@code params}, from {@code peer} at {@code
     * address}.
     */
    static void handle(
            HarborServer server,
            Map<String, String> params,
            InetAddress address,
            String peer,
            Replies c) {
        Target target = target(server, params);
        if (target.ingest() == null) {
            c.reply(target.status(), target.message());
            return;
        }
        if (c.refusedForFailures()) return;
        HarborIngest in = target.ingest();
        String pass = params.getOrDefault("pass", "");
        c.offLoop(
                SourceLogin.timeoutNanos(in),
                () -> in.icyLogin(pass).allowed(),
                r -> {
                    SourceLogin.Verdict v =
                            SourceLogin.verdict(
                                    r,
                                    Boolean.TRUE.equals(r.value()),
                                    server,
                                    address,
                                    in,
                                    log,
                                    "a title update (admin.cgi) from " + peer,
                                    "bad password");
                    answer(v, in, params, c, () -> c.reply(401, "invalid password"));
                });
    }

    /**
     * Answers a title update as its login check went: the title set (200), or why not; {@code
     * refused} answers a NO.
     */
    static void answer(
            SourceLogin.Verdict v,
            HarborIngest in,
            Map<String, String> params,
            Replies c,
            Runnable refused) {
        switch (v) {
            case YES -> {
                int status = in.adminMetadata(params);
                c.reply(status, status == 200 ? "metadata updated" : Responses.reason(status));
            }
            case NO -> refused.run();
            case TIMED_OUT -> c.reply(503, "the login check did not answer in time");
            case FAILED -> c.reply(500, "the login check failed");
        }
    }
}
