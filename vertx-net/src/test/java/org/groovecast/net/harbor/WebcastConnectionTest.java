package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.net.harbor.http.RequestHead;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A browser DJ's WebSocket on the harbor, frame by frame, on an embedded channel. */
class WebcastConnectionTest {
    private static final String UPGRADE =
            "GET /live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: webcast\r\n\r\n";
    private static final String HELLO =
            "{\"type\":\"hello\",\"data\":{\"mime\":\"audio/mpeg\",\"user\":\"source\",\"password\":\"pw\"}}";

    /**
     * The socket's end of the pipeline: counts the reads it passes on; while stalled, takes writes
     * it never completes.
     */
    private static final class Socket extends ChannelDuplexHandler {
        int reads;
        boolean stalled;
        final List<Object> stuck = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            reads++;
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (stalled) stuck.add(msg);
            else ctx.write(msg, promise);
        }
    }

    /** Takes {@code source}/{@code pw}; keeps the stream's bytes. */
    private static final class Recording implements HarborIngest {
        final ByteArrayOutputStream stream = new ByteArrayOutputStream();

        @Override
        public String path() {
            return "/live";
        }

        @Override
        public Login login(String user, String password) {
            return user.equals("source") && password.equals("pw")
                    ? Login.allowed(user)
                    : Login.refused(user);
        }

        @Override
        public Login icyLogin(String password) {
            return login("source", password);
        }

        @Override
        public double authTimeout() {
            return 1;
        }

        @Override
        public Session connect(
                RequestHead head, ChannelHandlerContext ctx, String peer, Login login) {
            throw new AssertionError("a browser DJ is connected with its hello's type");
        }

        @Override
        public Session connect(
                RequestHead head,
                String contentType,
                ChannelHandlerContext ctx,
                String peer,
                Login login,
                Answer answer) {
            answer.accept();
            return new Session() {
                @Override
                public void feed(ByteBuf data) {
                    byte[] b = ByteBufUtil.getBytes(data);
                    data.release();
                    stream.writeBytes(b);
                }

                @Override
                public void disconnected() {}
            };
        }

        @Override
        public int adminMetadata(Map<String, String> params) {
            return 200;
        }
    }

    private final Recording ingest = new Recording();
    private final Socket socket = new Socket();
    private final EmbeddedChannel ch = connect();

    private EmbeddedChannel connect() {
        HarborServer s = new HarborServer(0, "127.0.0.1", 64 * 1024);
        s.addIngest(ingest);
        s.callbacks(Runnable::run);
        s.commit();
        EmbeddedChannel c = new EmbeddedChannel(socket, new HarborConnection(s));
        c.freezeTime();
        return c;
    }

    /**
     * Closes the channel as a socket would: the harbor's handler lets go of its request buffer, and
     * what the test left unread (the 101, frames) or stuck in the stalled socket is released.
     */
    @AfterEach
    void finish() {
        ch.finishAndReleaseAll();
        socket.stuck.forEach(ReferenceCountUtil::release);
        socket.stuck.clear();
    }

    /** A masked frame, as a client sends it. */
    private static byte[] frame(int opcode, byte[] payload, boolean fin) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((fin ? 0x80 : 0) | opcode);
        if (payload.length < 126) {
            out.write(0x80 | payload.length);
        } else if (payload.length < 65536) {
            out.write(0x80 | 126);
            out.write(payload.length >> 8);
            out.write(payload.length & 0xff);
        } else {
            out.write(0x80 | 127);
            for (int i = 7; i >= 0; i--)
                out.write((int) (((long) payload.length >> (8 * i)) & 0xff));
        }
        byte[] key = {1, 2, 3, 4};
        out.writeBytes(key);
        for (int i = 0; i < payload.length; i++) out.write(payload[i] ^ key[i & 3]);
        return out.toByteArray();
    }

    private static byte[] text(String s) {
        return frame(1, s.getBytes(StandardCharsets.UTF_8), true);
    }

    private void send(byte[]... parts) {
        ByteBuf b = Unpooled.buffer();
        for (byte[] p : parts) b.writeBytes(p);
        ch.writeInbound(b);
        ch.runPendingTasks();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** What was written, the 101 and frames, as bytes. */
    private byte[] written() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Object o;
        while ((o = ch.readOutbound()) != null) {
            if (o instanceof ByteBuf b) out.writeBytes(ByteBufUtil.getBytes(b));
            ReferenceCountUtil.release(o);
        }
        return out.toByteArray();
    }

    /** The server's frames after its 101: opcode and, for a close frame, its code. */
    private List<String> frames() {
        byte[] b = written();
        String all = new String(b, StandardCharsets.ISO_8859_1);
        int at = all.indexOf("\r\n\r\n");
        at = at < 0 ? 0 : at + 4;
        List<String> out = new ArrayList<>();
        while (at + 2 <= b.length) {
            int op = b[at] & 0x0f;
            int len = b[at + 1] & 0x7f;
            int hdr = 2;
            if (len == 126) {
                len = ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
                hdr = 4;
            }
            out.add(
                    op == 8
                            ? "close " + (((b[at + hdr] & 0xff) << 8) | (b[at + hdr + 1] & 0xff))
                            : op == 10 ? "pong" : "op " + op);
            at += hdr + len;
        }
        return out;
    }

    @Test
    void aHelloSentWithTheUpgradeRequestIsReadFromBehindTheHeadNotReadAgainByIt() {
        // On a harbor.tls port the head is the TLS handler: decrypted bytes fired from there would
        // be taken for records.
        send(bytes(UPGRADE), text(HELLO), frame(2, bytes("MP3"), true));
        assertEquals(
                1,
                socket.reads,
                "the bytes after the request head went on from the handshake's place");
        assertEquals("MP3", ingest.stream.toString(StandardCharsets.ISO_8859_1));
        assertTrue(ch.isActive());
    }

    @Test
    void pingsAreNotAnsweredWhileTheSocketTakesNoWrites() {
        send(bytes(UPGRADE));
        send(frame(9, bytes("a"), true));
        assertEquals(List.of("pong"), frames());
        ch.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        for (int i = 0; i < 100; i++) send(frame(9, bytes("p" + i), true));
        assertEquals(List.of(), frames(), "a peer that pings and never reads queues nothing");
        assertTrue(ch.isActive());
    }

    @Test
    void aCloseIsAtOnceWhenTheSocketTakesNoWrites() {
        send(bytes(UPGRADE));
        written();
        socket.stalled = true;
        ch.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        send(frame(2, bytes("data before any hello"), true));
        assertFalse(ch.isActive(), "closed without waiting on a close frame that cannot go out");
    }

    @Test
    void aCloseFrameThatDoesNotGoOutIsGivenUpOnWithinSeconds() {
        send(bytes(UPGRADE));
        written();
        socket.stalled = true;
        send(frame(2, bytes("data before any hello"), true));
        assertTrue(ch.isActive(), "the close frame is on its way");
        ch.advanceTimeBy(WebcastConnection.CLOSE_BACKSTOP_SECONDS + 1, TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        ch.runPendingTasks();
        assertFalse(ch.isActive());
    }

    @Test
    void beforeTheLoginAFrameOver16KiBIsRefusedFromItsHeaderAlone() {
        send(bytes(UPGRADE));
        written();
        byte[] big =
                text(
                        "{\"type\":\"hello\",\"data\":{\"mime\":\"audio/mpeg\",\"x\":\""
                                + "x".repeat(20_000)
                                + "\"}}");
        byte[] head =
                java.util.Arrays.copyOf(big, 100); // the rest never comes: no need to wait for it
        send(head);
        assertEquals(List.of("close 1009"), frames());
    }

    @Test
    void beforeTheLoginFragmentsOver16KiBInAllAreRefused() {
        send(bytes(UPGRADE));
        written();
        for (int i = 0; i < 3; i++) send(frame(i == 0 ? 1 : 0, new byte[8000], false));
        assertEquals(List.of("close 1009"), frames());
    }

    @Test
    void onceStreamingMessagesUpTheMessageLimitAreTaken() {
        send(bytes(UPGRADE), text(HELLO));
        byte[] audio = new byte[40_000];
        java.util.Arrays.fill(audio, (byte) 7);
        send(frame(2, audio, true));
        assertEquals(40_000, ingest.stream.size());
        assertEquals(List.of(), frames());
        assertTrue(ch.isActive());
    }

    @Test
    void onceStreamingAFrameOver1MiBIsRefusedByTheDecoder() {
        send(bytes(UPGRADE), text(HELLO));
        written();
        send(
                new byte[] {
                    (byte) 0x82, (byte) 0xff, 0, 0, 0, 0, 0, 0x20, 0, 0, 1, 2, 3, 4
                }); // announces 2 MiB
        assertEquals(List.of("close 1009"), frames());
    }

    @Test
    void onceStreamingAMessageOver1MiBInFragmentsIsRefusedByTheAggregator() {
        send(bytes(UPGRADE), text(HELLO));
        written();
        send(frame(2, new byte[700 * 1024], false));
        send(frame(0, new byte[700 * 1024], true));
        assertEquals(List.of("close 1009"), frames());
        assertTrue(ingest.stream.size() == 0, "nothing of it reached the input");
    }

    @Test
    void aCloseReasonIsCutBetweenCodePoints() {
        String r = WebcastConnection.closeReason("\uD83D\uDE00".repeat(100));
        assertTrue(ByteBufUtil.utf8Bytes(r) <= 123);
        assertTrue(r.endsWith("..."));
        String cut = r.substring(0, r.length() - 3);
        assertEquals(0, cut.length() % 2, "whole surrogate pairs only: " + cut.length());
        assertEquals(cut, new String(cut.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
        assertEquals("short", WebcastConnection.closeReason("short"));
    }
}
