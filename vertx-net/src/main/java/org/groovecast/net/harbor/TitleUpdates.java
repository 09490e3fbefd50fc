package org.groovecast.net.harbor;

import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.groovecast.net.auth.BasicAuth;
import org.groovecast.net.harbor.http.HttpReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A source client's title update on a harbor connection: {@code /admin/metadata?mode=updinfo} with
 * the live input's source credentials (the parameters in the query for GET, in a form body for
 * POST, which libshout uses once the server allows it), and Shoutcast's {@code /admin.cgi} ({@link
 * AdminCgi}), both answered in HTTP on a connection kept alive. Functions of the connection they
 * are called for, which keeps their state: nothing of their own, and no handler in the pipeline.
 */
final class TitleUpdates {
    /** The connection's lines under its own logger's name, which is what operators filter on. */
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    static final String ADMIN_METADATA = "/admin/metadata";

    private TitleUpdates() {}

    /** {@code /admin/metadata} on {@code c} with its {@code params}. */
    static void adminMetadata(HarborConnection c, Map<String, String> params) {
        String mountName = params.getOrDefault("mount", "");
        String path = mountName.startsWith("/") ? mountName : "/" + mountName;
        c.serveMount(path);
        HarborIngest in = c.server().ingest(path);
        if (in == null) {
            c.reply(HttpReply.text(404, "no live input on " + mountName));
            return;
        }
        if (c.tooManyFailures(true)) return;
        String authorization = c.head().header("authorization");
        if (authorization == null) {
            c.reply(unauthorized());
            return;
        }
        AdminCgi.Replies replies = replies(c);
        replies.offLoop(
                SourceLogin.timeoutNanos(in),
                () -> BasicAuth.accepts(authorization, (u, p) -> in.login(u, p).allowed()),
                r -> {
                    SourceLogin.Verdict v =
                            SourceLogin.verdict(
                                    r,
                                    Boolean.TRUE.equals(r.value()),
                                    c.server(),
                                    c.address(),
                                    in,
                                    log,
                                    "a title update (/admin/metadata) from " + c.peer(),
                                    "bad user or password");
                    AdminCgi.answer(v, in, params, replies, () -> c.reply(unauthorized()));
                });
    }

    /** {@code /admin.cgi} on {@code c}: checked and answered by {@link AdminCgi}. */
    static void adminCgi(HarborConnection c) {
        AdminCgi.handle(c.server(), c.head().query(), c.address(), c.peer(), replies(c));
    }

    private static HttpReply unauthorized() {
        return new HttpReply(
                401,
                "text/plain; charset=utf-8",
                HarborConnection.basicRealm("Groovecast"),
                "Unauthorized");
    }

    /**
     * How a title update is answered on {@code c}: in HTTP, the connection kept alive; its login
     * check off the loop, after which the connection takes requests again. Made per title update,
     * not per connection: few connections send one.
     */
    private static AdminCgi.Replies replies(HarborConnection c) {
        return new AdminCgi.Replies() {
            @Override
            public boolean refusedForFailures() {
                return c.tooManyFailures(true);
            }

            @Override
            public <T> void offLoop(
                    long timeoutNanos, Supplier<T> work, Consumer<OffLoopCall.Result<T>> then) {
                c.offLoop(
                        timeoutNanos,
                        work,
                        r -> {
                            c.takeRequestsAgain();
                            then.accept(r);
                        },
                        null);
            }

            @Override
            public void reply(int status, String text) {
                c.reply(HttpReply.text(status, text));
            }
        };
    }
}
