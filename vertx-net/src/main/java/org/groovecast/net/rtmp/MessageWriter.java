package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one end of an RTMP connection writes, server or push client: protocol and user control
 * messages, AMF0 commands, and the stream's messages, each on its {@link ChunkStreamId} through the
 * connection's one {@link ChunkEncoder} (whose header compression needs every message of the
 * connection to pass through it). Nothing here flushes but {@link #answerPing}: callers write a
 * dialogue's messages and flush once.
 *
 * <p>On the channel's event loop. A control message costs its small buffer, as it did inline; the
 * stream's messages go out as slices of their payload, copied nowhere.
 */
final class MessageWriter {
    // User Control events (the first two bytes of a User Control message).
    private static final int STREAM_BEGIN = 0;
    private static final int STREAM_EOF = 1;
    private static final int PING_REQUEST = 6;
    private static final int PING_RESPONSE = 7;

    /** Set Peer Bandwidth's limit type "dynamic": the peer may treat it as hard or ignore it. */
    private static final int LIMIT_DYNAMIC = 2;

    /** Until a Set Chunk Size says otherwise, both ends chunk at 128 bytes. */
    private static final int INITIAL_CHUNK_SIZE = 128;

    private final ChannelHandlerContext ctx;
    private final ChunkEncoder encoder = new ChunkEncoder(INITIAL_CHUNK_SIZE);

    MessageWriter(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Set Chunk Size, then chunks of that size: the message itself goes out at the old one, as the
     * peer expects.
     */
    void setChunkSize(int size) {
        control(MessageType.SET_CHUNK_SIZE, size);
        encoder.setChunkSize(size);
    }

    void windowAcknowledgementSize(int window) {
        control(MessageType.WINDOW_ACKNOWLEDGEMENT_SIZE, window);
    }

    void setPeerBandwidth(int window) {
        ByteBuf b = ctx.alloc().buffer(5);
        b.writeInt(window).writeByte(LIMIT_DYNAMIC);
        write(ChunkStreamId.CONTROL, MessageType.SET_PEER_BANDWIDTH, 0, 0, b);
        b.release();
    }

    /** The bytes received so far, taken modulo 2^32 as the field is. */
    void acknowledgement(long received) {
        control(MessageType.ACKNOWLEDGEMENT, (int) received);
    }

    /** StreamBegin: the stream is ready, what follows on it is its content. */
    void streamBegin(int streamId) {
        userControl(STREAM_BEGIN, streamId);
    }

    /** StreamEOF: the stream's content ended (its publisher left). */
    void streamEof(int streamId) {
        userControl(STREAM_EOF, streamId);
    }

    /**
     * Answers a User Control message that is a PingRequest with a PingResponse carrying the same
     * timestamp, flushed at once (the peer is timing it); other events need no answer.
     */
    void answerPing(ByteBuf userControl) {
        int at = userControl.readerIndex();
        if (userControl.readableBytes() >= 6 && userControl.getUnsignedShort(at) == PING_REQUEST) {
            userControl(PING_RESPONSE, userControl.getInt(at + 2));
            ctx.flush();
        }
    }

    /** An AMF0 command: its name, transaction id and arguments (a null is AMF0's null). */
    void command(int streamId, String name, double transaction, Object... args) {
        ByteBuf b = ctx.alloc().buffer(256);
        Amf0.write(b, name);
        Amf0.write(b, transaction);
        for (Object a : args) Amf0.write(b, a);
        write(ChunkStreamId.COMMAND, MessageType.COMMAND_AMF0, streamId, 0, b);
        b.release();
    }

    /**
     * {@code onStatus} of a NetStream: how a publish or a play went, or what became of the stream.
     */
    void onStatus(int streamId, String level, String code, String description) {
        command(streamId, "onStatus", 0.0, null, status(level, code, description));
    }

    /**
     * The information object of a status or an error: level, code and description, in that order.
     */
    static Map<String, Object> status(String level, String code, String description) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("level", level);
        m.put("code", code);
        m.put("description", description);
        return m;
    }

    /**
     * Any message, as {@link ChunkEncoder#write}: the caller keeps its reference to {@code
     * payload}.
     */
    void write(int csid, int type, int streamId, long timestamp, ByteBuf payload) {
        encoder.write(ctx, csid, type, streamId, timestamp, payload);
    }

    private void control(int type, int value) {
        ByteBuf b = ctx.alloc().buffer(4);
        b.writeInt(value);
        write(ChunkStreamId.CONTROL, type, 0, 0, b);
        b.release();
    }

    private void userControl(int event, int value) {
        ByteBuf b = ctx.alloc().buffer(6);
        b.writeShort(event).writeInt(value);
        write(ChunkStreamId.CONTROL, MessageType.USER_CONTROL, 0, 0, b);
        b.release();
    }
}
