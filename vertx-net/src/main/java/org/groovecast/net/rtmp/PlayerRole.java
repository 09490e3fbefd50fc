package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server connection as a player: {@code play} subscribes an {@link RtmpPlayer} to the key's
 * stream, published now or waited for, and this side writes what the player's drain hands it and
 * the notices of its publishers coming and going. Waiting for a publisher is bounded, in time
 * (playWaitTimeout) and in number over the server (maxWaitingPlayers), as anyone may name any key.
 * All on this connection's loop. One played stream at a time: a second {@code play} ends the first.
 */
final class PlayerRole {
    // The connection's logger: what one connection did reads as one story, under the name operators
    // filter on.
    private static final Logger log = LoggerFactory.getLogger(RtmpConnection.class);

    private final RtmpServer server;
    private final RtmpServer.Limits limits;
    private final ChannelHandlerContext ctx;
    private final MessageWriter out;
    private final String peer;

    /** The {@code app/key} played: published now, or waited for. */
    private String playing;

    private RtmpPlayer player;

    /**
     * The player waits for a publisher, counted by the server, closed at the end of
     * playWaitTimeout.
     */
    private boolean waiting;

    private ScheduledFuture<?> waitTimeout;

    PlayerRole(
            RtmpServer server,
            RtmpServer.Limits limits,
            ChannelHandlerContext ctx,
            MessageWriter out,
            String peer) {
        this.server = server;
        this.limits = limits;
        this.ctx = ctx;
        this.out = out;
        this.peer = peer;
    }

    /** Who plays, for {@link RtmpPlayer}'s log lines. */
    String peer() {
        return peer;
    }

    boolean isPlaying() {
        return playing != null;
    }

    /**
     * {@code play} on message stream {@code streamId} of {@code name} ({@code key?params}) in
     * {@code app}.
     */
    void play(int streamId, String app, String name) {
        StreamKey key = StreamKey.parse(name);
        String path = app + "/" + key.name();
        if (!server.mayPlay(app, key.name(), key.params())) {
            out.onStatus(
                    streamId,
                    "error",
                    "NetStream.Play.Failed",
                    "playing " + path + " is not allowed");
            closeAfterWrites();
            return;
        }
        stop();
        // A key nobody publishes now is waited for, as nginx-rtmp and SRS do: an edge's pull asks
        // once and stays (StreamNotFound left it connected and never playing; see RtmpPlayer).
        // Waiting is bounded, in time and in number, as anyone may name any key.
        RtmpPlayer p = new RtmpPlayer(this, ctx, streamId, limits);
        boolean published = server.watch(path, p);
        if (!published && !server.startWaiting(peer, path, false)) {
            server.unwatch(path, p);
            p.stop();
            out.onStatus(
                    streamId,
                    "error",
                    "NetStream.Play.StreamNotFound",
                    path
                            + " is not published, and "
                            + limits.maxWaitingPlayers()
                            + " players wait for keys already");
            closeAfterWrites();
            return;
        }
        // Written before any of the stream: the player's drain runs on this loop, after this task.
        out.streamBegin(streamId);
        out.onStatus(
                streamId, "status", "NetStream.Play.Reset", "Playing and resetting " + path + ".");
        out.onStatus(streamId, "status", "NetStream.Play.Start", "Started playing " + path + ".");
        ByteBuf access = ctx.alloc().buffer(24);
        Amf0.write(access, "|RtmpSampleAccess");
        Amf0.write(access, Boolean.TRUE);
        Amf0.write(access, Boolean.TRUE);
        out.write(ChunkStreamId.DATA, MessageType.DATA_AMF0, streamId, 0, access);
        access.release();
        player = p;
        playing = path;
        p.waiting(!published);
        if (!published) waitStarted();
        log.info(
                published
                        ? "rtmp {}: playing {}"
                        : "rtmp {}: playing {}, which nobody publishes yet: waiting for it",
                peer,
                path);
    }

    /**
     * deleteStream, another play, or the connection closed: nothing more is written of the stream.
     */
    void stop() {
        if (playing == null) return;
        waitEnded();
        server.unwatch(playing, player);
        player.stop();
        playing = null;
        player = null;
    }

    /** A message of the played stream (from the player's drain); the caller keeps its reference. */
    void writeMedia(RtmpMessage m, int streamId) {
        out.write(ChunkStreamId.of(m.type), m.type, streamId, m.timestamp, m.payload);
    }

    /**
     * The publisher of the played stream left: StreamEOF and UnpublishNotify, on which ffmpeg and
     * most players end; one that stays waits for the key's next publisher.
     */
    void streamEnded(RtmpPlayer p) {
        if (p != player) return;
        out.streamEof(p.streamId());
        out.onStatus(
                p.streamId(),
                "status",
                "NetStream.Play.UnpublishNotify",
                playing + " is now unpublished.");
        ctx.flush();
        if (!waiting && server.startWaiting(peer, playing, true)) waitStarted();
    }

    /**
     * A publisher came for the key a player waited for: StreamBegin and PublishNotify, then its
     * stream.
     */
    void streamBegan(RtmpPlayer p) {
        if (p != player) return;
        waitEnded();
        out.streamBegin(p.streamId());
        out.onStatus(
                p.streamId(),
                "status",
                "NetStream.Play.PublishNotify",
                playing + " is now published.");
        ctx.flush();
        log.info("rtmp {}: {} is published: playing it", peer, playing);
    }

    /** The player waits for its key's publisher, once the server counted it. */
    private void waitStarted() {
        waiting = true;
        long ms = limits.playWaitTimeoutMillis();
        if (ms > 0)
            waitTimeout = ctx.executor().schedule(this::waitedTooLong, ms, TimeUnit.MILLISECONDS);
    }

    /** A publisher came, or the player went. */
    private void waitEnded() {
        if (!waiting) return;
        waiting = false;
        server.stopWaiting();
        if (waitTimeout != null) {
            waitTimeout.cancel(false);
            waitTimeout = null;
        }
    }

    private void waitedTooLong() {
        if (!waiting || player == null) return;
        String seconds = String.format("%.1f", limits.playWaitTimeoutMillis() / 1e3);
        log.info(
                "rtmp {}: nobody published {} within {} s (playWaitTimeout); closing",
                peer,
                playing,
                seconds);
        out.onStatus(
                player.streamId(),
                "error",
                "NetStream.Play.StreamNotFound",
                playing + " was not published within " + seconds + " s");
        closeAfterWrites();
    }

    /**
     * The refusal written before it goes: an empty write flushes what is queued, then the channel
     * closes.
     */
    private void closeAfterWrites() {
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
}
