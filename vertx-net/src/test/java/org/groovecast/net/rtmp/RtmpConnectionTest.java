package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.groovecast.net.fuzz.QuietLogs;
import org.groovecast.net.fuzz.TrackingAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A server connection's dialogue as a client sees it, on an {@link EmbeddedChannel}: the control
 * messages and answers to each command, byte for byte where a client depends on them, the
 * publisher's and the player's notices, pings, and the acknowledgement window. What the connection
 * writes is decoded as a client would, and every buffer is released once it closed.
 */
class RtmpConnectionTest {
    private final RtmpServer server = new RtmpServer(0, "127.0.0.1");
    private final List<Client> clients = new ArrayList<>();

    @AfterEach
    void closeAll() {
        for (Client c : clients) c.close();
    }

    @Test
    void connectIsAnsweredWithTheWindowThePeerBandwidthTheChunkSizeAndTheResult() {
        Client c = client();
        c.command(0, "connect", 1.0, Map.of("app", "live/", "objectEncoding", 3.0));
        List<Message> got = c.read();
        assertEquals(4, got.size(), got.toString());

        Message window = got.get(0);
        assertEquals(ChunkStreamId.CONTROL, window.csid);
        assertEquals(MessageType.WINDOW_ACKNOWLEDGEMENT_SIZE, window.type);
        assertEquals("002625a0", window.hex()); // 2 500 000

        Message bandwidth = got.get(1);
        assertEquals(MessageType.SET_PEER_BANDWIDTH, bandwidth.type);
        assertEquals("002625a002", bandwidth.hex()); // the same, dynamic

        Message chunkSize = got.get(2);
        assertEquals(MessageType.SET_CHUNK_SIZE, chunkSize.type);
        assertEquals(String.format("%08x", RtmpServer.Limits.DEFAULT_CHUNK_SIZE), chunkSize.hex());

        Message result = got.get(3);
        assertEquals(ChunkStreamId.COMMAND, result.csid);
        assertEquals(MessageType.COMMAND_AMF0, result.type);
        assertEquals(0, result.streamId);
        List<Object> v = result.values();
        assertEquals("_result", v.get(0));
        assertEquals(1.0, v.get(1));
        assertEquals(Map.of("fmsVer", "FMS/3,0,1,123", "capabilities", 31.0), v.get(2));
        assertEquals(
                List.of("level", "code", "description", "objectEncoding"),
                List.copyOf(info(v).keySet()));
        assertEquals("NetConnection.Connect.Success", info(v).get("code"));
        assertEquals(3.0, info(v).get("objectEncoding"));
    }

    @Test
    void createStreamNumbersStreamsFromOneAndThePublishersDialogueIsAnsweredEmpty() {
        Client c = client();
        c.command(0, "createStream", 2.0, (Object) null);
        c.command(0, "createStream", 3.0, (Object) null);
        c.command(0, "releaseStream", 4.0, null, "key");
        c.command(0, "FCPublish", 5.0, null, "key");
        c.command(0, "getStreamLength", 6.0, null, "key");
        c.command(0, "_checkbw", 7.0);
        List<Message> got = c.read();
        assertEquals(6, got.size(), got.toString());
        assertEquals(Arrays.asList("_result", 2.0, null, 1.0), got.get(0).values());
        assertEquals(Arrays.asList("_result", 3.0, null, 2.0), got.get(1).values());
        assertEquals(Arrays.asList("_result", 4.0, null, null), got.get(2).values());
        assertEquals(Arrays.asList("_result", 5.0, null, null), got.get(3).values());
        assertEquals(
                Arrays.asList("_result", 6.0, null, 0.0),
                got.get(4).values()); // live: a length of 0
        assertEquals(Arrays.asList("_result", 7.0, null, null), got.get(5).values());
    }

    @Test
    void anUnknownCommandGetsAnErrorOnlyWhenItAwaitsAnAnswer() {
        Client c = client();
        c.command(0, "onBWDone", 0.0);
        assertEquals(List.of(), c.read());
        c.command(0, "frobnicate", 9.0, (Object) null);
        List<Message> got = c.read();
        assertEquals(1, got.size(), got.toString());
        List<Object> v = got.get(0).values();
        assertEquals("_error", v.get(0));
        assertEquals(9.0, v.get(1));
        assertEquals("NetConnection.Call.Failed", info(v).get("code"));
        assertEquals("unknown command frobnicate", info(v).get("description"));
    }

    @Test
    void anAmf3CommandIsReadAsAmf0AfterItsLeadingByte() {
        Client c = client();
        ByteBuf b = Unpooled.buffer().writeByte(0);
        for (Object o : new Object[] {"createStream", 2.0, null}) Amf0.write(b, o);
        c.send(ChunkStreamId.COMMAND, MessageType.COMMAND_AMF3, 0, b);
        assertEquals(Arrays.asList("_result", 2.0, null, 1.0), c.read().get(0).values());
    }

    @Test
    void aCommandWithoutANameClosesTheConnection() {
        Client c = client();
        ByteBuf b = Unpooled.buffer();
        Amf0.write(b, 1.0);
        try (QuietLogs quiet = new QuietLogs()) {
            c.send(ChunkStreamId.COMMAND, MessageType.COMMAND_AMF0, 0, b);
        }
        assertFalse(c.channel.isActive());
    }

    @Test
    void publishBeginsTheStreamAndAKeyHasOnePublisher() {
        Client first = connected();
        first.command(0, "createStream", 2.0, (Object) null);
        first.read();
        first.command(1, "publish", 3.0, null, "studio?token=x", "live");
        List<Message> got = first.read();
        assertEquals(2, got.size(), got.toString());
        assertEquals(MessageType.USER_CONTROL, got.get(0).type);
        assertEquals("000000000001", got.get(0).hex()); // StreamBegin of stream 1
        assertEquals(1, got.get(1).streamId);
        assertEquals("NetStream.Publish.Start", info(got.get(1).values()).get("code"));
        assertTrue(server.isPublished("live/studio"));

        Client second = connected();
        second.command(1, "publish", 3.0, null, "studio", "live");
        List<Object> refused = second.read().get(0).values();
        assertEquals("NetStream.Publish.BadName", info(refused).get("code"));
        assertEquals("live/studio is already being published", info(refused).get("description"));

        second.command(1, "publish", 4.0, null, "", "live");
        assertEquals(
                "publishing live/ is not allowed",
                info(second.read().get(0).values()).get("description"));

        first.command(0, "deleteStream", 5.0, null, 1.0);
        assertEquals(List.of(), first.read());
        assertFalse(server.isPublished("live/studio"));
    }

    @Test
    void playOfAPublishedKeyBeginsTheStreamAndAllowsSampleAccess() {
        Client publisher = connected();
        publisher.command(1, "publish", 3.0, null, "studio", "live");
        publisher.read();

        Client player = connected();
        player.command(1, "play", 3.0, null, "studio");
        List<Message> got = player.read();
        assertEquals(4, got.size(), got.toString());
        assertEquals("000000000001", got.get(0).hex()); // StreamBegin
        assertEquals("NetStream.Play.Reset", info(got.get(1).values()).get("code"));
        assertEquals("NetStream.Play.Start", info(got.get(2).values()).get("code"));
        Message access = got.get(3);
        assertEquals(ChunkStreamId.DATA, access.csid);
        assertEquals(MessageType.DATA_AMF0, access.type);
        assertEquals(List.of("|RtmpSampleAccess", true, true), access.values());
        publisher.channel
                .runPendingTasks(); // the player's subscription, made on the publisher's loop

        // What the publisher sends on its stream reaches the player on the chunk stream of its
        // kind.
        publisher.send(
                ChunkStreamId.AUDIO,
                MessageType.AUDIO,
                1,
                Unpooled.wrappedBuffer(new byte[] {(byte) 0xAF, 1, 7}));
        publisher.send(
                ChunkStreamId.VIDEO,
                MessageType.VIDEO,
                1,
                Unpooled.wrappedBuffer(new byte[] {0x17, 1, 9}));
        publisher.send(
                ChunkStreamId.AUDIO,
                MessageType.AUDIO,
                2,
                Unpooled.wrappedBuffer(new byte[] {(byte) 0xAF, 1, 8}));
        got = player.read();
        assertEquals(
                2, got.size(), got.toString()); // not what came on a stream id nobody publishes
        assertEquals(ChunkStreamId.AUDIO, got.get(0).csid);
        assertEquals("af0107", got.get(0).hex());
        assertEquals(ChunkStreamId.VIDEO, got.get(1).csid);
        assertEquals("170109", got.get(1).hex());

        // The publisher leaves: StreamEOF and UnpublishNotify.
        publisher.command(0, "FCUnpublish", 4.0, null, "studio");
        got = player.read();
        assertEquals(2, got.size(), got.toString());
        assertEquals(MessageType.USER_CONTROL, got.get(0).type);
        assertEquals("000100000001", got.get(0).hex());
        assertEquals("NetStream.Play.UnpublishNotify", info(got.get(1).values()).get("code"));
    }

    @Test
    void aPingIsAnsweredWithItsTimestamp() {
        Client c = client();
        c.send(
                ChunkStreamId.CONTROL,
                MessageType.USER_CONTROL,
                0,
                hex("000612345678")); // PingRequest
        List<Message> got = c.read();
        assertEquals(1, got.size(), got.toString());
        assertEquals(ChunkStreamId.CONTROL, got.get(0).csid);
        assertEquals(MessageType.USER_CONTROL, got.get(0).type);
        assertEquals("000712345678", got.get(0).hex());
        // Other events need no answer.
        c.send(
                ChunkStreamId.CONTROL,
                MessageType.USER_CONTROL,
                0,
                hex("00030000000100000bb8")); // SetBufferLength, stream 1, 3 s
        assertEquals(List.of(), c.read());
    }

    @Test
    void theBytesReceivedAreAcknowledgedOncePerWindowThePeerAskedFor() {
        Client c = client();
        c.send(
                ChunkStreamId.DATA,
                MessageType.DATA_AMF0,
                0,
                Unpooled.wrappedBuffer(new byte[6000]));
        assertEquals(List.of(), c.read()); // no window asked: no acknowledgement
        c.send(
                ChunkStreamId.CONTROL,
                MessageType.WINDOW_ACKNOWLEDGEMENT_SIZE,
                0,
                Unpooled.buffer().writeInt(5000));
        List<Message> got = c.read();
        assertEquals(1, got.size(), got.toString());
        assertEquals(MessageType.ACKNOWLEDGEMENT, got.get(0).type);
        assertEquals(ChunkStreamId.CONTROL, got.get(0).csid);
        assertEquals(
                c.sent,
                Integer.parseUnsignedInt(got.get(0).hex(), 16)); // the handshake's bytes included
        long acknowledged = c.sent;
        c.send(
                ChunkStreamId.DATA,
                MessageType.DATA_AMF0,
                0,
                Unpooled.wrappedBuffer(new byte[3000]));
        assertEquals(List.of(), c.read());
        c.send(
                ChunkStreamId.DATA,
                MessageType.DATA_AMF0,
                0,
                Unpooled.wrappedBuffer(new byte[3000]));
        got = c.read();
        assertEquals(1, got.size(), got.toString());
        assertTrue(c.sent - acknowledged >= 5000);
        assertEquals(c.sent, Integer.parseUnsignedInt(got.get(0).hex(), 16));
    }

    private static ByteBuf hex(String bytes) {
        return Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(bytes));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> info(List<Object> command) {
        return (Map<String, Object>) command.get(3);
    }

    private Client client() {
        Client c = new Client(server);
        clients.add(c);
        return c;
    }

    /** A client past {@code connect} to app {@code live}, its answers read. */
    private Client connected() {
        Client c = client();
        c.command(0, "connect", 1.0, Map.of("app", "live"));
        c.read();
        return c;
    }

    /** A message the connection wrote. */
    private record Message(int csid, int type, int streamId, byte[] body) {
        String hex() {
            return ByteBufUtil.hexDump(body);
        }

        List<Object> values() {
            return Amf0.readAll(Unpooled.wrappedBuffer(body));
        }

        @Override
        public String toString() {
            return "csid " + csid + " type " + type + " stream " + streamId + " " + hex();
        }
    }

    /** The client's end: a simple handshake, then chunks both ways. */
    private static final class Client {
        final TrackingAllocator alloc = new TrackingAllocator();
        final EmbeddedChannel channel;
        final ChunkEncoder encoder = new ChunkEncoder(128);
        final ChunkDecoder decoder;
        final ByteBuf replies;
        final List<Message> got = new ArrayList<>();

        /** Bytes written to the server, the handshake's included. */
        long sent;

        Client(RtmpServer server) {
            channel = new EmbeddedChannel(false, false, new RtmpConnection(server));
            channel.config().setAllocator(alloc);
            try {
                channel.register(); // after the allocator is set: the connection allocates as it
                // is added
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            replies = alloc.heapBuffer(4096);
            decoder =
                    new ChunkDecoder(
                            alloc,
                            ChunkDecoder.DEFAULT_MAX_MESSAGE,
                            ChunkDecoder.DEFAULT_MAX_CHUNK_STREAM_ID);
            byte[] handshake = new byte[1 + 2 * Handshake.SIZE]; // C0, a simple C1, C2
            handshake[0] = 3;
            write(Unpooled.wrappedBuffer(handshake));
            drain();
            assertEquals(1 + 2 * Handshake.SIZE, replies.readableBytes(), "S0+S1+S2");
            replies.skipBytes(1 + 2 * Handshake.SIZE);
        }

        void command(int streamId, Object... values) {
            ByteBuf b = Unpooled.buffer();
            for (Object v : values) Amf0.write(b, v);
            send(ChunkStreamId.COMMAND, MessageType.COMMAND_AMF0, streamId, b);
        }

        /** One message, in one read; takes {@code payload}. */
        void send(int csid, int type, int streamId, ByteBuf payload) {
            ByteBuf out = Unpooled.buffer();
            encoder.encode(out, csid, type, streamId, 0, payload);
            payload.release();
            write(out);
        }

        private void write(ByteBuf bytes) {
            sent += bytes.readableBytes();
            ByteBuf in = alloc.directBuffer(bytes.readableBytes()).writeBytes(bytes);
            bytes.release();
            channel.writeInbound(in);
            channel.runPendingTasks();
        }

        /** What the connection wrote since the last call, as messages. */
        List<Message> read() {
            channel.runPendingTasks(); // a player's drain, queued by a publisher's message
            drain();
            decoder.decode(
                    replies,
                    (csid, type, streamId, timestamp, payload) -> {
                        try {
                            got.add(
                                    new Message(
                                            csid, type, streamId, ByteBufUtil.getBytes(payload)));
                        } finally {
                            payload.release();
                        }
                    });
            replies.discardReadBytes();
            List<Message> m = List.copyOf(got);
            got.clear();
            return m;
        }

        private void drain() {
            Object o;
            while ((o = channel.readOutbound()) != null) {
                try {
                    if (o instanceof ByteBuf b)
                        replies.writeBytes(b, b.readerIndex(), b.readableBytes());
                } finally {
                    ReferenceCountUtil.release(o);
                }
            }
        }

        void close() {
            channel.close();
            channel.runPendingTasks();
            drain();
            decoder.release();
            replies.release();
            assertNull(channel.readInbound(), "nothing passed the connection");
            alloc.assertAllReleased("after the connection closed");
        }
    }
}
