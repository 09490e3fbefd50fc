package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The burst a new listener gets: the last {@code burst} bytes of the stream, whether or not its
 * event loop had a listener of the mount before (each {@link EmbeddedChannel} is its own loop).
 */
class MountBurstTest {
    private HarborServer server;
    private HarborMount mount;
    private final List<ByteBuf> published = new ArrayList<>();
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @BeforeEach
    void setUp() {
        server = new HarborServer(0, "127.0.0.1", 64 * 1024);
        mount =
                server.mount(
                        "/radio",
                        "audio/mpeg",
                        () -> new HarborMount("/radio", "audio/mpeg", 30, 64 * 1024, Map.of()));
        server.callbacks(Runnable::run);
        server.commit();
    }

    @AfterEach
    void tearDown() {
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    /** Publishes 10 bytes of {@code c}, keeping a reference to check that the mount let go. */
    private void publish(char c) {
        ByteBuf chunk = Unpooled.buffer(10).writeBytes(String.valueOf(c).repeat(10).getBytes());
        published.add(chunk.retain());
        mount.publish(chunk);
    }

    /** A new listener's connection, its request sent and not yet run on its loop. */
    private EmbeddedChannel connect() {
        EmbeddedChannel ch = new EmbeddedChannel(new HarborConnection(server));
        channels.add(ch);
        ch.writeInbound(
                Unpooled.copiedBuffer("GET /radio HTTP/1.0\r\n\r\n", StandardCharsets.US_ASCII));
        return ch;
    }

    /** What {@code ch} was sent once its loop ran, without the response head. */
    private static String stream(EmbeddedChannel ch) {
        ch.runPendingTasks();
        StringBuilder out = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            out.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return out.substring(out.indexOf("\r\n\r\n") + 4);
    }

    /** The stream a new listener is sent at once. */
    private String listen() {
        return stream(connect());
    }

    private static String chunks(String letters) {
        StringBuilder s = new StringBuilder();
        for (char c : letters.toCharArray()) s.append(String.valueOf(c).repeat(10));
        return s.toString();
    }

    @Test
    void theFirstListenerOnALoopGetsTheBurst() {
        for (char c : "abcde".toCharArray()) publish(c);

        assertEquals(chunks("cde"), listen(), "the last 30 bytes, before any listener");
        publish('f');
        assertEquals(chunks("def"), listen(), "on another loop, later");
    }

    @Test
    void aChunkIsInTheBurstOrStreamedNeverBoth() {
        publish('a');
        EmbeddedChannel first = connect();
        publish('b');

        assertEquals(chunks("ab"), stream(first));
    }

    @Test
    void everyChunkIsLetGoOnceTheMountIsGone() {
        for (char c : "abcde".toCharArray()) publish(c);
        listen();
        var gone = mount.close(); // each loop lets go on the loop
        channels.forEach(EmbeddedChannel::runPendingTasks);
        gone.join();
        publish('f'); // after the close: released as it comes, on the loop
        channels.forEach(EmbeddedChannel::runPendingTasks);

        for (ByteBuf b : published)
            assertEquals(1, b.refCnt(), "only the test's own reference on " + (char) b.getByte(0));
        published.forEach(ByteBuf::release);
    }
}
