package org.groovecast.net.harbor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.groovecast.api.UserFunction;
import org.groovecast.net.admission.AdmitAnswer;
import org.groovecast.net.admission.DenyList;
import org.groovecast.net.admission.MountAdmission;
import org.groovecast.net.auth.BasicAuth;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.RequestHead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A mount's admission rules applied to a request ({@link MountAdmission}): its deny list and its
 * cap on the loop, at once, and its {@code admit:} function off the loop, with the deadline of the
 * {@code auth:} functions; each refusal answered (403 denied, 503 with {@code Retry-After} full or
 * the check failed, 302 sent elsewhere). A listener's connection is closed after a refusal, an HLS
 * client's kept alive. Functions of the connection they are called for, which keeps their state.
 */
final class ListenerAdmission {
    /** The connection's lines under its own logger's name, which is what operators filter on. */
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    /** What an admit function that failed answered; the host logged why. */
    private static final Object FAILED = new Object();

    /**
     * Seconds a client refused for a full mount is told to wait: a place frees when someone leaves,
     * which is no matter of seconds, and a player that retries at once only adds load.
     */
    static final String FULL_RETRY_AFTER = "30";

    /** Icecast's {@code client} field: a number per client admitted or asked about. */
    private static final AtomicLong IDS = new AtomicLong();

    private ListenerAdmission() {}

    /**
     * Refuses {@code c}'s request when its address or agent is denied: 403, nothing said of why;
     * returns whether it did.
     */
    static boolean denied(
            HarborConnection c, MountAdmission rules, String where, boolean keepAlive) {
        DenyList.Reason why = rules.deny().refuses(c.address(), c.head().header("user-agent"));
        if (why == null) return false;
        // Debug: a banned scraper retries all day, and the ban is the operator's own decision.
        log.debug(
                "harbor: {} refused on {} (denied {})",
                c.peer(),
                where,
                why == DenyList.Reason.ADDRESS ? "address" : "agent");
        refuse(c, keepAlive, 403, "access denied", Map.of());
        return true;
    }

    /** Answers that {@code where} is full: 503 with {@code Retry-After}. */
    static void full(HarborConnection c, String where, int max, boolean keepAlive) {
        log.debug("harbor: {} refused on {} (full: {} listeners)", c.peer(), where, max);
        refuse(
                c,
                keepAlive,
                503,
                "this stream has its " + max + " listeners; try again later",
                Map.of("Retry-After", FULL_RETRY_AFTER));
    }

    /**
     * Asks {@code admit} about {@code c}'s client off the loop; {@code admitted} runs on the loop
     * when it allows, else the client is answered its refusal. A function that throws or does not
     * answer within the {@code auth:} deadline refuses (503), with one log line.
     */
    static void ask(
            HarborConnection c,
            UserFunction admit,
            String mount,
            boolean keepAlive,
            Runnable admitted) {
        Map<String, Object> client = client(c, mount);
        c.offLoop(
                ListenerLogin.AUTH_NANOS,
                () -> admit.callOr(FAILED, client),
                r -> {
                    if (keepAlive) c.takeRequestsAgain();
                    switch (r.outcome()) {
                        case ANSWERED -> answered(c, r.value(), mount, keepAlive, admitted);
                        case TIMED_OUT -> {
                            log.warn(
                                    "harbor: the admit function of {} did not answer within {} s; refused {}",
                                    mount,
                                    TimeUnit.NANOSECONDS.toSeconds(ListenerLogin.AUTH_NANOS),
                                    c.peer());
                            unavailable(c, keepAlive);
                        }
                        case FAILED -> {
                            log.warn(
                                    "harbor: the admit function of {} failed for {}: {}; refused",
                                    mount,
                                    c.peer(),
                                    r.error().toString());
                            unavailable(c, keepAlive);
                        }
                    }
                },
                null);
    }

    private static void answered(
            HarborConnection c, Object value, String mount, boolean keepAlive, Runnable admitted) {
        if (value == FAILED) { // the host logged the failure, once
            unavailable(c, keepAlive);
            return;
        }
        AdmitAnswer a;
        try {
            a = AdmitAnswer.of(value);
        } catch (IllegalArgumentException e) {
            log.warn(
                    "harbor: the admit function of {} answered {}; refused {}",
                    mount,
                    e.getMessage(),
                    c.peer());
            unavailable(c, keepAlive);
            return;
        }
        switch (a.kind()) {
            case ALLOW -> admitted.run();
            case DENY -> {
                log.info("harbor: {} refused on {} by its admit function", c.peer(), mount);
                refuse(c, keepAlive, 403, "access denied", Map.of());
            }
            case REDIRECT -> {
                log.info(
                        "harbor: {} sent from {} to {} by its admit function",
                        c.peer(),
                        mount,
                        a.location());
                refuse(c, keepAlive, 302, "see " + a.location(), Map.of("Location", a.location()));
            }
        }
    }

    private static void unavailable(HarborConnection c, boolean keepAlive) {
        refuse(
                c,
                keepAlive,
                503,
                "the admission check did not answer; try again later",
                Map.of("Retry-After", "5"));
    }

    /**
     * What the admit function sees of the client: its address (the client's, behind trusted
     * proxies), agent, headers, query, the mount and the path asked for, the Basic user and
     * password if sent; and what Icecast's URL auth posts besides (id, port, server, target).
     */
    static Map<String, Object> client(HarborConnection c, String mount) {
        RequestHead h = c.head();
        BasicAuth.Credentials login = BasicAuth.parse(h.header("authorization"));
        String host = h.header("host");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("address", c.address().getHostAddress());
        m.put("agent", h.header("user-agent"));
        m.put("headers", Collections.unmodifiableMap(h.headers()));
        m.put("query", Collections.unmodifiableMap(h.query()));
        m.put("mount", mount);
        m.put("path", h.path());
        m.put("target", h.target());
        m.put("user", login == null ? null : login.user());
        m.put("password", login == null ? null : login.password());
        m.put("id", IDS.incrementAndGet());
        m.put("port", c.server().port());
        m.put("server", host == null ? "" : hostName(host));
        return m;
    }

    /** A {@code Host} header's name, without its port. */
    private static String hostName(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    private static void refuse(
            HarborConnection c, boolean keepAlive, int status, String text, Map<String, String> h) {
        if (keepAlive) c.reply(new HttpReply(status, "text/plain; charset=utf-8", h, text + "\n"));
        else c.closeWith(status, text, h);
    }
}
