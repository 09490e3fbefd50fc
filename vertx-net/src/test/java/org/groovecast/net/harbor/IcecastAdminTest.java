package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.net.harbor.clients.HarborLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Icecast's admin views on the harbor: behind user admin and settings.harbor.adminPassword, a
 * request without them 401 and nothing more, wrong ones counted toward the 429; listclients,
 * killclient and moveclients on the port's listeners. (Their XML against a real icecast2:
 * IcecastAdminSpec.)
 */
class IcecastAdminTest {
    private static final String ADMIN = auth("admin", "s3cret");
    private HarborServer server;
    private HarborMount radio;
    private HarborMount other;
    private final List<EmbeddedChannel> open = new ArrayList<>();

    private static String auth(String user, String password) {
        return "Authorization: Basic "
                + Base64.getEncoder()
                        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8))
                + "\r\n";
    }

    @BeforeEach
    void setUp() {
        server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        radio =
                server.mount(
                        "/radio",
                        "audio/mpeg",
                        () ->
                                new HarborMount(
                                        "/radio",
                                        "audio/mpeg",
                                        0,
                                        1 << 20,
                                        Map.of("icy-name", "Test FM")));
        other =
                server.mount(
                        "/other",
                        "audio/mpeg",
                        () -> new HarborMount("/other", "audio/mpeg", 0, 1 << 20, Map.of()));
        server.mount(
                "/ogg",
                "audio/ogg",
                () -> new HarborMount("/ogg", "audio/ogg", 0, 1 << 20, Map.of()));
        server.callbacks(Runnable::run);
        server.commit();
        server.adminPassword("s3cret");
        server.limits(
                new HarborLimits(
                        10_000_000_000L,
                        1_000_000_000L,
                        100,
                        100,
                        false,
                        3,
                        60_000_000_000L,
                        1_000_000_000L));
    }

    @AfterEach
    void tearDown() {
        open.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private EmbeddedChannel connect(String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HarborConnection(server));
        open.add(ch);
        ch.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.ISO_8859_1));
        ch.runPendingTasks();
        return ch;
    }

    private static String read(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            out.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return out.toString();
    }

    private String get(String target, String headers) {
        return read(
                connect(
                        "GET "
                                + target
                                + " HTTP/1.1\r\nHost: radio.example\r\n"
                                + headers
                                + "\r\n"));
    }

    private EmbeddedChannel listener(String mount, String agent) {
        EmbeddedChannel ch =
                connect("GET " + mount + " HTTP/1.0\r\nUser-Agent: " + agent + "\r\n\r\n");
        read(ch);
        return ch;
    }

    @Test
    void withoutCredentialsEveryViewIs401AndDisclosesNothing() {
        listener("/radio", "VLC");
        for (String target :
                List.of(
                        "/admin/stats",
                        "/admin/listclients?mount=/radio",
                        "/admin/killclient?mount=/radio&id=1",
                        "/admin/moveclients?mount=/radio&destination=/other")) {
            String answer = get(target, "");
            assertTrue(answer.startsWith("HTTP/1.1 401 "), target + ": " + answer);
            assertTrue(answer.contains("WWW-Authenticate: Basic realm="), answer);
            assertFalse(
                    answer.contains("/radio")
                            || answer.contains("VLC")
                            || answer.contains("Test FM"),
                    answer);
        }
        assertEquals(1, radio.listeners(), "nothing was done");
        assertEquals(
                0,
                server.authFailures()
                        .retryAfter(java.net.InetAddress.getLoopbackAddress(), server.limits()),
                "asking without credentials is no failed login");
    }

    @Test
    void wrongCredentialsCountTowardThe429AndNoPasswordAdmitsNoOne() {
        for (int i = 0; i < 3; i++) {
            String answer = get("/admin/stats", auth("admin", "guess" + i));
            assertTrue(answer.startsWith("HTTP/1.1 401 "), answer);
        }
        String refused = get("/admin/stats", ADMIN);
        assertTrue(refused.startsWith("HTTP/1.1 429 "), "even the right password, now: " + refused);

        HarborServer bare = new HarborServer(0, "127.0.0.1", 1024);
        bare.commit();
        EmbeddedChannel ch = new EmbeddedChannel(new HarborConnection(bare));
        open.add(ch);
        ch.writeInbound(
                Unpooled.copiedBuffer(
                        "GET /admin/stats HTTP/1.1\r\n" + auth("admin", "") + "\r\n",
                        StandardCharsets.ISO_8859_1));
        assertTrue(read(ch).startsWith("HTTP/1.1 401 "), "no admin password set: no admin");
    }

    @Test
    void listClientsListsTheMountsListenersAndKillClientDisconnectsOne() {
        EmbeddedChannel vlc = listener("/radio", "VLC/3.0");
        listener("/radio", "mpv");
        listener("/other", "curl");

        String list = get("/admin/listclients?mount=/radio", ADMIN);
        assertTrue(list.startsWith("HTTP/1.1 200 "), list);
        assertTrue(list.contains("Content-Type: text/xml; charset=utf-8"), list);
        assertTrue(list.contains("Cache-Control: no-cache, no-store"), list);
        // Connected: whole seconds of the clock, 1 if one began meanwhile
        assertTrue(
                Pattern.compile(
                                "<source mount=\"/radio\"><Listeners>2</Listeners><listener><IP>127\\.0\\.0\\.1</IP><UserAgent>VLC/3\\.0</UserAgent><Connected>[01]</Connected><ID>")
                        .matcher(list)
                        .find(),
                list);
        assertFalse(list.contains("curl"), list);
        Matcher id = Pattern.compile("<ID>(\\d+)</ID>").matcher(list);
        assertTrue(id.find());

        String killed = get("/admin/killclient?mount=/radio&id=" + id.group(1), ADMIN);
        vlc.runPendingTasks();
        assertTrue(
                killed.contains(
                        "<message>Client " + id.group(1) + " removed</message><return>1</return>"),
                killed);
        assertFalse(vlc.isOpen());
        assertEquals(1, radio.listeners());
        String again = get("/admin/killclient?mount=/radio&id=" + id.group(1), ADMIN);
        assertTrue(
                again.contains(
                        "<message>Client "
                                + id.group(1)
                                + " not found</message><return>0</return>"),
                again);
        String nowhere = get("/admin/listclients?mount=/nowhere", ADMIN);
        assertTrue(nowhere.startsWith("HTTP/1.1 400 "), nowhere);
        assertTrue(nowhere.contains("<b>400 - Source does not exist</b>"), nowhere);
        assertTrue(get("/admin/listclients", ADMIN).contains("400 - Unknown admin request"));
        assertTrue(
                get("/admin/killclient?mount=/radio", ADMIN).contains("400 - Missing parameter"));
        assertTrue(
                get("/admin/killclient?mount=/radio&id=abc", ADMIN)
                        .contains("<message>Client 0 not found</message><return>0</return>"),
                "an id is read as Icecast reads it (atoi)");
    }

    @Test
    void moveClientsMovesEveryListenerToTheDestination() {
        EmbeddedChannel a = listener("/radio", "a");
        EmbeddedChannel b = listener("/radio", "b");

        String moved = get("/admin/moveclients?mount=/radio&destination=/other", ADMIN);
        a.runPendingTasks();
        b.runPendingTasks();

        assertTrue(
                moved.contains(
                        "<message>Clients moved from /radio to /other</message><return>1</return>"),
                moved);
        assertEquals(0, radio.listeners());
        assertEquals(2, other.listeners());
        assertTrue(
                get("/admin/listclients?mount=/other", ADMIN).contains("<Listeners>2</Listeners>"));
        other.publish(Unpooled.copiedBuffer("after the move", StandardCharsets.ISO_8859_1));
        a.runPendingTasks();
        assertEquals("after the move", read(a), "the destination's stream, on the same connection");
        assertTrue(
                get("/admin/moveclients?mount=/other&destination=/nowhere", ADMIN)
                        .startsWith("HTTP/1.1 400 "));
        assertTrue(
                get("/admin/moveclients?mount=/other&destination=/other", ADMIN)
                        .startsWith("HTTP/1.1 400 "));
        assertTrue(
                get("/admin/moveclients?mount=/other&destination=/ogg", ADMIN)
                        .startsWith("HTTP/1.1 400 "),
                "MP3 listeners are not handed Ogg");
        assertEquals(2, other.listeners());
    }

    @Test
    void statsDescribesTheServerAndEachMount() {
        listener("/radio", "VLC");
        radio.metadata("Band - Song");

        String stats = get("/admin/stats", ADMIN);

        assertTrue(stats.startsWith("HTTP/1.1 200 "), stats);
        String xml = stats.substring(stats.indexOf("\r\n\r\n") + 4);
        assertTrue(xml.startsWith("<?xml version=\"1.0\"?>\n<icestats>"), xml);
        assertTrue(xml.contains("<source mount=\"/radio\">"), xml);
        assertTrue(xml.contains("<listeners>1</listeners>"), xml);
        assertTrue(xml.contains("<listenurl>http://radio.example/radio</listenurl>"), xml);
        assertTrue(xml.contains("<server_name>Test FM</server_name>"), xml);
        assertTrue(xml.contains("<title>Band - Song</title>"), xml);
        assertTrue(xml.contains("<max_listeners>unlimited</max_listeners>"), xml);

        radio.admission(
                new org.groovecast.net.admission.MountAdmission(
                        50, 0, org.groovecast.net.admission.DenyList.NONE, null));
        String capped = get("/admin/stats", ADMIN);
        assertTrue(capped.contains("<max_listeners>50</max_listeners>"), capped);
    }
}
