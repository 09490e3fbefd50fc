package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.net.fuzz.EscapeProbe;
import org.groovecast.net.fuzz.Pieces;
import org.groovecast.net.fuzz.QuietLogs;
import org.groovecast.net.fuzz.TrackingAllocator;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.RequestHead;
import org.groovecast.net.harbor.http.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * A harbor port's connection ({@link HarborConnection}) fed any bytes, in pieces, on a server with
 * a listener mount, a mount behind a password, a live input that is not running (the real {@link
 * LiveInput}: its auth, refusals and {@code /admin/metadata}), a source-client input that takes any
 * stream, script routes and a static directory.
 *
 * <p>Invariants: nothing escapes the connection (its only error is an HTTP error answer and the
 * connection closed); every answer is a well-formed HTTP/1.x response head whose header lines are
 * the harbor's own (so nothing from the request splits a response); a static file is never served
 * from outside its directory; the connection holds at most 2 N + 64 KiB after N bytes and has
 * released every buffer once closed.
 *
 * <p>Seeds live under {@code HarborFuzzTestInputs/requestHead/<kind>/}: real requests of players,
 * source clients (SOURCE, PUT with Expect: 100-continue), scripts' clients, malformed ones. A new
 * protocol on the port (the ICY source protocol) gets its seeds as one more directory there.
 */
class HarborFuzzTest {
    static final String USER = "source";
    static final String PASSWORD = "hackme";

    /** The size of the file beside the static directory: a response this long is a traversal. */
    private static final int SECRET_SIZE = 777;

    private static final Set<String> HEADERS =
            Set.of(
                    "content-type",
                    "content-length",
                    "connection",
                    "cache-control",
                    "www-authenticate",
                    "icy-name",
                    "icy-metaint",
                    "allow",
                    "accept-encoding",
                    "retry-after",
                    "access-control-allow-origin",
                    "access-control-expose-headers",
                    "access-control-allow-methods",
                    "access-control-allow-headers");
    private static final Pattern STATUS =
            Pattern.compile("HTTP/1\\.[01] [1-5][0-9][0-9] [A-Za-z ]+");
    private static final Pattern HEADER =
            Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+): ([^\\r\\n]*)");

    private static QuietLogs quiet;
    private static Path root;

    @BeforeAll
    static void setUp() throws Exception {
        quiet = new QuietLogs();
        root = Files.createTempDirectory("harbor-fuzz");
        Files.createDirectories(root.resolve("files/sub"));
        Files.writeString(root.resolve("files/a.txt"), "a static file\n");
        Files.writeString(root.resolve("files/sub/b.html"), "<p>b</p>\n");
        Files.write(root.resolve("secret.txt"), new byte[SECRET_SIZE]);
        // classes loaded here, not in the first input's 5 s
        serve("GET /radio HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }

    @AfterAll
    static void tearDown() throws IOException {
        quiet.close();
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList())
                Files.delete(p);
        }
    }

    /**
     * Any bytes on a harbor connection, as a listener, a source client or a script's client sends
     * them.
     */
    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void requestHead(byte[] request) throws Exception {
        serve(request);
    }

    /**
     * {@code GET /admin/metadata?<query>} with the live input's user and password, the query being
     * the input: as a DJ's encoder sends a title. Answered like any request (above), by the live
     * input.
     */
    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void adminMetadata(byte[] query) throws Exception {
        String head =
                "GET /admin/metadata?"
                        + new String(query, StandardCharsets.ISO_8859_1)
                        + " HTTP/1.0\r\n"
                        + "Authorization: "
                        + org.groovecast.net.auth.BasicAuth.header(USER, PASSWORD)
                        + "\r\n"
                        + "User-Agent: butt/0.1.40\r\n\r\n";
        List<Integer> statuses = serve(head.getBytes(StandardCharsets.ISO_8859_1));
        // A query with a line break ends the request line early, and its own lines replace the
        // password: any answer may come then. Otherwise the first is to this request.
        boolean ours =
                new String(query, StandardCharsets.ISO_8859_1)
                        .chars()
                        .noneMatch(c -> c == '\r' || c == '\n');
        if (ours)
            assertTrue(
                    !statuses.isEmpty() && Set.of(200, 400, 404, 431).contains(statuses.get(0)),
                    "answered " + statuses);
    }

    /** Serves {@code bytes} on a fresh connection and returns the statuses answered. */
    private static List<Integer> serve(byte[] bytes) throws Exception {
        TrackingAllocator alloc = new TrackingAllocator();
        HarborServer server = server();
        HarborConnection connection = new HarborConnection(server);
        EscapeProbe probe = new EscapeProbe(connection);
        EmbeddedChannel channel = new EmbeddedChannel(false, false, probe, connection);
        channel.config().setAllocator(alloc);
        channel.register();
        Answers answers = new Answers();
        try {
            long[] fed = {0};
            Pieces.feed(
                    bytes,
                    piece -> {
                        if (!channel.isActive()) return false;
                        fed[0] += piece.length;
                        channel.writeInbound(alloc.directBuffer(piece.length).writeBytes(piece));
                        channel.runPendingTasks();
                        probe.rethrow();
                        answers.drain(channel);
                        long held = alloc.live();
                        assertTrue(
                                held <= 2 * fed[0] + 64 * 1024,
                                "holds " + held + " bytes after " + fed[0] + " bytes in");
                        return true;
                    });
            server.mount("/radio")
                    .publish(alloc.directBuffer(4).writeBytes(new byte[] {1, 2, 3, 4}));
            channel.runPendingTasks();
            answers.drain(channel);
        } finally {
            channel.close();
            channel.runPendingTasks();
            answers.drain(channel);
        }
        alloc.assertAllReleased("after the connection closed");
        return answers.statuses;
    }

    private static HarborServer server() {
        HarborServer server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        server.mount(
                "/radio",
                "audio/mpeg",
                () ->
                        new HarborMount(
                                "/radio",
                                "audio/mpeg",
                                0,
                                64 * 1024,
                                Map.of("icy-name", "Fuzz FM")));
        HarborMount locked =
                server.mount(
                        "/locked",
                        "audio/ogg",
                        () -> new HarborMount("/locked", "audio/ogg", 0, 64 * 1024, Map.of()));
        locked.auth((user, password) -> USER.equals(user) && PASSWORD.equals(password));
        server.addIngest(
                new LiveInput(
                        0,
                        "/live",
                        null,
                        (user, password) -> USER.equals(user) && PASSWORD.equals(password),
                        1,
                        10,
                        10));
        server.addIngest(new AnyStream("/dj"));
        server.addRoute(
                new Route(
                                "GET",
                                "/api/:id",
                                req -> HttpReply.text(200, req.params() + " " + req.query()))
                        .mayBlock());
        server.addRoute(
                new Route(
                        "POST",
                        "/echo",
                        req ->
                                new HttpReply(
                                        200, "application/octet-stream", Map.of(), req.data())));
        server.addRoute(
                new Route(
                        "GET",
                        "/bytes",
                        req -> new HttpReply(200, null, Map.of(), new byte[] {0, 1, 2})));
        server.addRoute(new Route("GET", "/void", req -> null));
        server.addRoute(
                new Route(
                        "GET",
                        "/boom",
                        req -> {
                            throw new IllegalStateException("a script handler that fails");
                        }));
        server.addRoute(
                new Route(
                                "GET",
                                "/boom-off-loop",
                                req -> {
                                    throw new IllegalStateException(
                                            "a script handler that fails, off the loop");
                                })
                        .mayBlock());
        server.addStatic("/files", root.resolve("files"));
        server.callbacks(
                Runnable::run); // logins and off-loop handlers answered within the input, on the
        // test's thread
        server.commit();
        return server;
    }

    /** A live input that takes any source client and throws its stream away. */
    private record AnyStream(String path) implements HarborIngest {
        @Override
        public Session connect(
                RequestHead head, ChannelHandlerContext ctx, String peer, Login login) {
            ctx.writeAndFlush(
                    Unpooled.copiedBuffer(
                            head.version() + " 200 OK\r\n\r\n", StandardCharsets.ISO_8859_1));
            return new Session() {
                @Override
                public void feed(ByteBuf data) {
                    data.release();
                }

                @Override
                public void disconnected() {}
            };
        }

        @Override
        public int adminMetadata(Map<String, String> params) {
            return 200;
        }

        @Override
        public Login login(String user, String password) {
            return Login.allowed(user);
        }

        @Override
        public double authTimeout() {
            return 1;
        }

        @Override
        public Login icyLogin(String password) {
            return login("source", password);
        }

        @Override
        public Session connect(
                RequestHead head,
                String contentType,
                ChannelHandlerContext ctx,
                String peer,
                Login login,
                Answer answer) {
            answer.refuse(403, "this mount takes no browser DJs");
            return null;
        }
    }

    /**
     * What the harbor wrote back. Each response head goes out in a buffer of its own (with the body
     * of a short answer after it), so each buffer that starts one is checked as a head: a
     * well-formed status line, then header lines of the harbor's own, up to the blank line.
     */
    private static final class Answers {
        final List<Integer> statuses = new ArrayList<>();

        void drain(EmbeddedChannel channel) {
            Object o;
            while ((o = channel.readOutbound()) != null) {
                try {
                    if (o instanceof ByteBuf b) {
                        String text = b.toString(StandardCharsets.ISO_8859_1);
                        if (text.startsWith("HTTP/")) head(text);
                    } else if (o instanceof FileRegion f) {
                        if (f.count() == SECRET_SIZE)
                            fail("served the file outside the static directory");
                    } else {
                        fail("wrote a " + o.getClass().getName());
                    }
                } finally {
                    ReferenceCountUtil.release(o);
                }
            }
        }

        private void head(String text) {
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) fail("a response head without its end: " + quote(text));
            String[] lines = text.substring(0, end).split("\r\n", -1);
            if (!STATUS.matcher(lines[0]).matches()) fail("a bad status line: " + quote(text));
            statuses.add(Integer.parseInt(lines[0].substring(9, 12)));
            for (int i = 1; i < lines.length; i++) {
                Matcher h = HEADER.matcher(lines[i]);
                if (!h.matches())
                    fail("a bad header line " + quote(lines[i]) + " in " + quote(text));
                if (!HEADERS.contains(h.group(1).toLowerCase(java.util.Locale.ROOT))) {
                    fail(
                            "a header the harbor does not write: "
                                    + quote(lines[i])
                                    + " in "
                                    + quote(text));
                }
            }
        }

        private static String quote(String s) {
            s = s.length() > 300 ? s.substring(0, 300) + "..." : s;
            return "\"" + s.replace("\r", "\\r").replace("\n", "\\n") + "\"";
        }
    }
}
