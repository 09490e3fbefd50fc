package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RTMP connection, publisher or player: the one handler of its channel (see
 * docs/decisions/0001), which calls plain classes for each stage, inline on the connection's event
 * loop and in order, with no hand-off per message: the {@link ServerHandshake}, then the {@link
 * ChunkReader} decoding messages, which are routed here by type: protocol control answered on the
 * spot, commands to the {@link CommandDispatch}, media and metadata to the {@link PublisherRole}; a
 * player's stream comes back through its {@link PlayerRole}. A protocol violation closes this
 * connection alone, with a log line naming it.
 */
final class RtmpConnection extends ChannelInboundHandlerAdapter implements ChunkDecoder.Sink {
    private static final Logger log = LoggerFactory.getLogger(RtmpConnection.class);

    private final RtmpServer server;
    private final RtmpServer.Limits limits;
    private final ServerHandshake handshake = new ServerHandshake();
    private final AcknowledgementWindow window = new AcknowledgementWindow();
    private ChannelHandlerContext ctx;

    /**
     * The handshake's bytes as they arrive, then what the {@link ChunkReader} keeps between reads.
     */
    private ByteBuf cumulation;

    private String peer = "?";
    // From channelActive on (they log the peer, known then):
    private MessageWriter out;
    private PublisherRole publisher;
    private PlayerRole player;
    private CommandDispatch commands;
    // From the end of the handshake on:
    private ChunkReader chunks;
    private IdleWatch idleWatch;

    RtmpConnection(RtmpServer server) {
        this.server = server;
        this.limits = server.limits();
    }

    String peer() {
        return peer;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.cumulation = ctx.alloc().buffer(2 * Handshake.SIZE + 1);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        peer = String.valueOf(ctx.channel().remoteAddress()).replaceFirst("^/", "");
        server.connected(ctx.channel());
        out = new MessageWriter(ctx);
        publisher = new PublisherRole(server, ctx, out, peer);
        player = new PlayerRole(server, limits, ctx, out, peer);
        commands = new CommandDispatch(limits, ctx, out, publisher, player, peer);
        handshake.start(ctx, limits.handshakeTimeoutMillis(), peer);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        window.received(in.readableBytes());
        try {
            if (chunks == null) {
                cumulation.writeBytes(in);
                if (handshake.read(ctx, cumulation)) handshaken();
                cumulation.discardSomeReadBytes();
            }
            if (chunks != null) chunks.read(in);
            if (window.due()) {
                out.acknowledgement(window.received());
                ctx.flush();
            }
        } catch (RtmpProtocolException e) {
            fail(e.getMessage());
        } finally {
            in.release();
        }
    }

    /** C2 read: chunks from now on, the first of them already in the cumulation. */
    private void handshaken() {
        ChunkDecoder decoder =
                new ChunkDecoder(
                        ctx.alloc(),
                        limits.maxMessage(),
                        limits.maxChunkStreamId(),
                        limits.maxPending(),
                        server.pending());
        chunks = new ChunkReader(ctx, cumulation, decoder, this);
        idleWatch = new IdleWatch(this, limits.idleTimeoutMillis());
        idleWatch.start(ctx.executor());
    }

    private void fail(String reason) {
        if (log.isWarnEnabled()) log.warn("rtmp {}: {}; closing the connection", peer, reason);
        ctx.close();
    }

    /**
     * The {@link IdleWatch}'s verdict (this loop): a publisher gone silent is worth a warning, a
     * stranger that never used its connection only a note.
     */
    void idle(String why, boolean publisher) {
        if (publisher) {
            if (log.isWarnEnabled()) log.warn("rtmp {}: {}; closing the connection", peer, why);
        } else if (log.isInfoEnabled()) {
            log.info("rtmp {}: {}; closing the connection", peer, why);
        }
        ctx.close();
    }

    boolean isPublishing() {
        return publisher != null && publisher.isPublishing();
    }

    boolean isPlaying() {
        return player != null && player.isPlaying();
    }

    /** Audio and video messages received on the published stream so far. */
    long mediaReceived() {
        return publisher == null ? 0 : publisher.mediaReceived();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        handshake.stop();
        if (idleWatch != null) idleWatch.stop();
        if (publisher != null) publisher.unpublish();
        if (player != null) player.stop();
        if (chunks != null) chunks.release();
        cumulation.release();
        cumulation = Unpooled.EMPTY_BUFFER;
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (log.isInfoEnabled())
            log.info("rtmp {}: {}; closing the connection", peer, cause.toString());
        ctx.close();
    }

    /**
     * A whole message from the chunk stream, routed by its type; {@code payload} is ours to
     * release.
     */
    @Override
    public void message(int csid, int type, int streamId, long timestamp, ByteBuf payload) {
        switch (type) {
            case MessageType.AUDIO, MessageType.VIDEO ->
                    publisher.media(type, streamId, timestamp, payload);
            case MessageType.DATA_AMF0 -> publisher.data(streamId, timestamp, payload, 0);
            case MessageType.DATA_AMF3 ->
                    publisher.data(streamId, timestamp, payload, 1); // a leading 0 switches to AMF0
            case MessageType.COMMAND_AMF0 -> commands.dispatch(streamId, payload, 0);
            case MessageType.COMMAND_AMF3 ->
                    commands.dispatch(streamId, payload, 1); // the same after its leading byte
            case MessageType.USER_CONTROL -> {
                try {
                    out.answerPing(payload);
                } finally {
                    payload.release();
                }
            }
            case MessageType.WINDOW_ACKNOWLEDGEMENT_SIZE -> {
                window.windowSize(payload);
                payload.release();
            }
            // Set Chunk Size (the decoder applied it), Abort (the decoder dropped the message),
            // Acknowledgement, Set Peer Bandwidth, shared objects, aggregates: nothing to do.
            default -> payload.release();
        }
    }
}
