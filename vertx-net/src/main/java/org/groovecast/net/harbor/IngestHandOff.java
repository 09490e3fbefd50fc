package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import java.util.Map;
import org.groovecast.net.auth.BasicAuth;
import org.groovecast.net.harbor.http.RequestHead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live source on a harbor connection: an Icecast {@code SOURCE} or {@code PUT} (libshout, butt,
 * ffmpeg), its credentials checked off the loop, then the connection handed to the live input with
 * the stream's bytes that came with the head; or a browser DJ's WebSocket, handed to {@link
 * WebcastConnection}, whose login comes with its hello. Functions of the connection they are called
 * for, which keeps their state: nothing of their own, and no handler in the pipeline.
 */
final class IngestHandOff {
    /** The connection's lines under its own logger's name, which is what operators filter on. */
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    private IngestHandOff() {}

    /** A source client for {@code in} on {@code c}. */
    static void source(HarborConnection c, HarborIngest in) {
        if (c.tooManyFailures(false)) return;
        RequestHead h = c.head();
        String authorization = h.header("authorization");
        if (authorization == null) {
            // libshout asks once without credentials, to learn that Basic is wanted: no failed
            // login, no warning.
            log.debug(
                    "input.harbor {}: {} asked without credentials; answered 401",
                    in.path(),
                    c.peer());
            c.closeWith(
                    401,
                    "this mount needs a user and password",
                    HarborConnection.basicRealm("Groovecast"));
            return;
        }
        BasicAuth.Credentials credentials = BasicAuth.parse(authorization);
        c.offLoop(
                SourceLogin.timeoutNanos(in),
                () ->
                        credentials == null
                                ? null
                                : in.login(credentials.user(), credentials.password()),
                r -> {
                    Login login = r.value();
                    boolean yes = login != null && login.allowed();
                    switch (SourceLogin.verdict(
                            r,
                            yes,
                            c.server(),
                            c.address(),
                            in,
                            log,
                            c.peer(),
                            "bad user or password")) {
                        case YES -> c.becomeIngest(in, h, login);
                        case NO ->
                                c.closeWith(
                                        401,
                                        "wrong user or password",
                                        HarborConnection.basicRealm("Groovecast"));
                        case TIMED_OUT ->
                                c.closeWith(
                                        503, "the login check did not answer in time", Map.of());
                        case FAILED -> c.closeWith(500, "the login check failed", Map.of());
                    }
                },
                null);
    }

    /** A browser DJ for {@code in} on {@code c}: the WebSocket takes the connection over. */
    static void webcast(HarborConnection c, HarborIngest in) {
        if (c.tooManyFailures(false)) return;
        ByteBuf rest = c.becomeWebcast(); // what came behind the head: the first frames, maybe
        WebcastConnection.upgrade(c.server(), in, c.head(), c.ctx(), c.peer(), c.address(), rest);
    }
}
