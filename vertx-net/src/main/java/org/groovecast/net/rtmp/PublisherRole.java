package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server connection as a publisher: {@code publish} claims the key's {@link RtmpStream} (if the
 * script's hook allows it and nobody else holds it), then the audio, video and metadata received on
 * the published message stream go to it, inline on this connection's loop; anything on another
 * stream id is dropped. One published stream at a time: a second {@code publish} ends the first.
 */
final class PublisherRole {
    // The connection's logger: what one connection did reads as one story, under the name operators
    // filter on.
    private static final Logger log = LoggerFactory.getLogger(RtmpConnection.class);

    private final RtmpServer server;
    private final ChannelHandlerContext ctx;
    private final MessageWriter out;
    private final String peer;
    private RtmpStream publishing;
    private int streamId;
    private long mediaReceived;

    PublisherRole(RtmpServer server, ChannelHandlerContext ctx, MessageWriter out, String peer) {
        this.server = server;
        this.ctx = ctx;
        this.out = out;
        this.peer = peer;
    }

    boolean isPublishing() {
        return publishing != null;
    }

    /**
     * Audio and video messages received on the published stream so far (what the {@link IdleWatch}
     * looks at).
     */
    long mediaReceived() {
        return mediaReceived;
    }

    /**
     * {@code publish} on message stream {@code streamId} of {@code name} ({@code key?params}) in
     * {@code app}.
     */
    void publish(int streamId, String app, String name) {
        StreamKey key = StreamKey.parse(name);
        String path = app + "/" + key.name();
        if (key.name().isEmpty() || !server.mayPublish(app, key.name(), key.params())) {
            out.onStatus(
                    streamId,
                    "error",
                    "NetStream.Publish.BadName",
                    "publishing " + path + " is not allowed");
            log.info("rtmp {}: publishing {} refused", peer, path);
            return;
        }
        if (publishing != null) unpublish();
        RtmpStream s = server.claim(path, ctx.executor());
        if (s == null) {
            out.onStatus(
                    streamId,
                    "error",
                    "NetStream.Publish.BadName",
                    path + " is already being published");
            log.info("rtmp {}: {} is already being published; refused", peer, path);
            return;
        }
        publishing = s;
        this.streamId = streamId;
        out.streamBegin(streamId);
        out.onStatus(streamId, "status", "NetStream.Publish.Start", path + " is now published.");
        log.info("rtmp {}: publishing {}", peer, path);
    }

    /** FCUnpublish, deleteStream, or the connection closed: the stream ends and its key is free. */
    void unpublish() {
        RtmpStream s = publishing;
        if (s == null) return;
        publishing = null;
        s.end(); // before the key is free: a new publisher's messages come after this one's end
        server.release(s.name, s);
        log.info("rtmp {}: stopped publishing {}", peer, s.name);
    }

    /** An audio or video message; takes {@code payload}. */
    void media(int type, int streamId, long timestamp, ByteBuf payload) {
        if (publishing != null && streamId == this.streamId) {
            mediaReceived++;
            publishing.publish(new RtmpMessage(type, timestamp, payload), false);
        } else {
            payload.release();
        }
    }

    /**
     * A data message, AMF0 after {@code skip} leading bytes (1 for the AMF3 type, whose leading 0
     * switches to AMF0); takes {@code payload}. Metadata is passed on as players expect it.
     */
    void data(int streamId, long timestamp, ByteBuf payload, int skip) {
        try {
            if (publishing == null || streamId != this.streamId || payload.readableBytes() <= skip)
                return;
            ByteBuf body =
                    payload.slice(payload.readerIndex() + skip, payload.readableBytes() - skip);
            int start = body.readerIndex();
            Object first = Amf0.read(body);
            if ("@setDataFrame".equals(first)) {
                // Players expect onMetaData itself: pass on what follows the @setDataFrame string.
                int from = body.readerIndex();
                Object name = Amf0.read(body);
                boolean metadata = "onMetaData".equals(name);
                publishing.publish(
                        new RtmpMessage(
                                MessageType.DATA_AMF0,
                                timestamp,
                                body.retainedSlice(from, body.writerIndex() - from)),
                        metadata);
            } else {
                publishing.publish(
                        new RtmpMessage(
                                MessageType.DATA_AMF0,
                                timestamp,
                                body.retainedSlice(start, body.writerIndex() - start)),
                        "onMetaData".equals(first));
            }
        } finally {
            payload.release();
        }
    }
}
