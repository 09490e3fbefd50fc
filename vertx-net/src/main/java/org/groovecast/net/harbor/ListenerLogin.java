package org.groovecast.net.harbor;

import io.netty.channel.ChannelHandlerContext;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import org.groovecast.net.admission.MountAdmission;
import org.groovecast.net.auth.BasicAuth;
import org.groovecast.net.harbor.sessions.ListenerSession;
import org.groovecast.net.harbor.sessions.ListenerSessions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener's request for a mount ({@code GET} or {@code HEAD}): logged in first when the mount
 * has an {@code auth:} function (run off the loop, a refusal counted against the address), then
 * attached to the mount, which writes the stream from then on; a {@code HEAD} gets the listener's
 * head alone. Functions of the connection they are called for, which keeps their state: nothing of
 * their own, and no handler in the pipeline.
 */
final class ListenerLogin {
    /** The connection's lines under its own logger's name, which is what operators filter on. */
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    /** How long a listener mount's {@code auth:} (and {@code admit:}) function may take. */
    static final long AUTH_NANOS = TimeUnit.SECONDS.toNanos(10);

    private ListenerLogin() {}

    /**
     * A listener of {@code mount} on {@code c}, whose request head asked for it: refused at once
     * when the mount's deny list names it or the mount is full (a {@code HEAD} takes no place),
     * then logged in, then asked about by the mount's {@code admit:} function.
     */
    static void listen(HarborConnection c, HarborMount mount) {
        MountAdmission rules = mount.admission();
        boolean head = c.head().method().equals("HEAD");
        if (!rules.isOpen()) {
            if (ListenerAdmission.denied(c, rules, mount.path(), false)) return;
            if (!head && mount.full(rules)) {
                ListenerAdmission.full(c, mount.path(), rules.maxListeners(), false);
                return;
            }
        }
        BiPredicate<String, String> auth = mount.auth();
        if (auth == null) {
            admit(c, mount, rules, null);
            return;
        }
        if (c.tooManyFailures(false)) return;
        String authorization = c.head().header("authorization");
        if (authorization == null) {
            c.closeWith(
                    401,
                    "this stream needs a user and password",
                    HarborConnection.basicRealm(c.head().path()));
            return;
        }
        String what = "output.harbor " + mount.path();
        c.offLoop(
                AUTH_NANOS,
                () -> BasicAuth.accepts(authorization, auth),
                r -> {
                    switch (verdict(c, r, Boolean.TRUE.equals(r.value()), what)) {
                        case YES -> admit(c, mount, rules, user(authorization));
                        case NO -> {
                            c.failedLogin();
                            log.info(
                                    "harbor: listener {} refused on {} (bad user or password)",
                                    c.peer(),
                                    mount.path());
                            c.closeWith(
                                    401,
                                    "this stream needs a user and password",
                                    HarborConnection.basicRealm(mount.path()));
                        }
                        case TIMED_OUT -> {
                            log.warn(
                                    "output.harbor {}: its auth function did not answer within {} s; refused {}",
                                    mount.path(),
                                    TimeUnit.NANOSECONDS.toSeconds(AUTH_NANOS),
                                    c.peer());
                            c.closeWith(503, "the login check did not answer in time", Map.of());
                        }
                        case FAILED -> c.closeWith(500, "the login check failed", Map.of());
                    }
                },
                null);
    }

    /** A client that passed the rest, asked about by the mount's admit function if it has one. */
    private static void admit(
            HarborConnection c, HarborMount mount, MountAdmission rules, String user) {
        if (rules.admit() == null) attach(c, mount, user);
        else
            ListenerAdmission.ask(
                    c, rules.admit(), mount.path(), false, () -> attach(c, mount, user));
    }

    private static String user(String authorization) {
        BasicAuth.Credentials given = BasicAuth.parse(authorization);
        return given == null ? null : given.user();
    }

    private static void attach(HarborConnection c, HarborMount mount, String user) {
        ChannelHandlerContext ctx = c.ctx();
        if (c.head().method().equals("HEAD")) {
            // A player's probe: the listener's headers and nothing more; no listener, no onConnect.
            c.endWith(mount.responseHead(ctx.alloc(), c.head()));
            return;
        }
        MountAdmission rules = mount.admission();
        c.becomeListener();
        if (!mount.seat(rules)) { // full since it was first asked
            ListenerAdmission.full(c, mount.path(), rules.maxListeners(), false);
            return;
        }
        ListenerSessions sessions = c.server().sessions();
        ListenerSession session =
                sessions.begin(c.address(), c.head(), mount.path(), user, ctx::close);
        mount.attach(ctx, c.head(), c.peer(), session, sessions, rules);
        ctx.flush();
    }

    /**
     * A login check's result as a verdict: {@code yes} says whether its answer admits; a failure is
     * logged.
     */
    private static SourceLogin.Verdict verdict(
            HarborConnection c, OffLoopCall.Result<?> r, boolean yes, String what) {
        return switch (r.outcome()) {
            case ANSWERED -> yes ? SourceLogin.Verdict.YES : SourceLogin.Verdict.NO;
            case TIMED_OUT -> SourceLogin.Verdict.TIMED_OUT;
            case FAILED -> {
                log.warn(
                        "{}: its auth function failed for {}: {}",
                        what,
                        c.peer(),
                        r.error().toString());
                yield SourceLogin.Verdict.FAILED;
            }
        };
    }
}
