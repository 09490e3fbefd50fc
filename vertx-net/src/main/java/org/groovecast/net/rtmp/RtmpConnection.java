package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RTMP connection, publisher or player: the handshake, then chunks decoded into messages and
 * handled inline on this connection's event loop, in order (no hand-off per message). Protocol
 * control and AMF0 commands are answered here; a publisher's media goes to its {@link RtmpStream},
 * a player's comes back through its {@link RtmpPlayer}. A protocol violation closes this
 * connection alone, with a log line naming it.
 */
final class RtmpConnection extends ChannelInboundHandlerAdapter implements ChunkDecoder.Sink {
    private static final Logger log = LoggerFactory.getLogger(RtmpConnection.class);
    /** The chunk size the push client sends in (nginx-rtmp's); the server's is its limits' chunkSize. */
    static final int OUT_CHUNK_SIZE = 4096;
    private static final int WINDOW = 2_500_000;
    private static final int CONTROL_CSID = 2;
    private static final int COMMAND_CSID = 3;

    private enum Phase { C0C1, C2, CHUNKS }

    private final RtmpServer server;
    private final RtmpServer.Limits limits;
    private final ChunkEncoder encoder = new ChunkEncoder(128);
    private ChannelHandlerContext ctx;
    private ByteBuf cumulation;
    private ChunkDecoder decoder;
    private Phase phase = Phase.C0C1;
    private ScheduledFuture<?> handshakeTimeout;
    private IdleWatch idleWatch;
    private long mediaReceived;
    private String peer = "?";
    private String app = "";
    private int nextStreamId = 1;
    private long received;
    private long acknowledged;
    private long peerWindow;
    private RtmpStream publishing;
    private int publishStreamId;
    /** The {@code app/key} played: published now, or waited for. */
    private String playing;
    private RtmpPlayer player;
    /** The player waits for a publisher, counted by the server, closed at the end of playWaitTimeout. */
    private boolean waiting;
    private ScheduledFuture<?> waitTimeout;

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
        handshakeTimeout = ctx.executor().schedule(() -> {
            if (phase != Phase.CHUNKS) {
                log.info("rtmp {}: no handshake within {} ms; closing", peer, limits.handshakeTimeoutMillis());
                ctx.close();
            }
        }, limits.handshakeTimeoutMillis(), TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        received += in.readableBytes();
        try {
            if (phase != Phase.CHUNKS) {
                cumulation.writeBytes(in);
                process();
                cumulation.discardSomeReadBytes();
            }
            if (phase == Phase.CHUNKS) chunks(in);
            acknowledge();
        } catch (RtmpProtocolException e) {
            fail(e.getMessage());
        } finally {
            in.release();
        }
    }

    /**
     * Decodes straight from the socket's buffer; only a header split across reads waits in the
     * cumulation, completed a few bytes at a time so that payload bytes are copied once, into
     * their message.
     */
    private void chunks(ByteBuf in) {
        if (cumulation.isReadable()) {
            decoder.decode(cumulation, this); // what waits: the first chunks after C2, or a split header
            cumulation.discardReadBytes();
            while (cumulation.isReadable() && in.isReadable()) {
                cumulation.writeBytes(in, Math.min(in.readableBytes(), 32));
                decoder.decode(cumulation, this);
                cumulation.discardReadBytes();
            }
            if (cumulation.isReadable()) return;
        }
        decoder.decode(in, this);
        if (in.isReadable() && ctx.channel().isActive()) cumulation.writeBytes(in);
    }

    private void process() {
        if (phase == Phase.C0C1) {
            if (!cumulation.isReadable()) return;
            int version = cumulation.getUnsignedByte(cumulation.readerIndex());
            if (version != 3) throw new RtmpProtocolException("handshake: version " + version + ", not 3");
            if (cumulation.readableBytes() < 1 + Handshake.SIZE) return;
            ByteBuf out = ctx.alloc().buffer(1 + 2 * Handshake.SIZE);
            Handshake.answer(cumulation, out);
            ctx.writeAndFlush(out, ctx.voidPromise());
            phase = Phase.C2;
        }
        if (phase == Phase.C2) {
            if (cumulation.readableBytes() < Handshake.SIZE) return;
            cumulation.skipBytes(Handshake.SIZE);
            phase = Phase.CHUNKS;
            handshakeTimeout.cancel(false);
            decoder = new ChunkDecoder(ctx.alloc(), limits.maxMessage(), limits.maxChunkStreamId(), limits.maxPending(),
                    server.pending());
            idleWatch = new IdleWatch(this, limits.idleTimeoutMillis());
            idleWatch.start(ctx.executor());
            // Bytes after C2 (the first chunks) stay in the cumulation for chunks().
        }
    }

    private void acknowledge() {
        if (peerWindow > 0 && received - acknowledged >= peerWindow) {
            acknowledged = received;
            control(3, (int) received);
            ctx.flush();
        }
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
        return publishing != null;
    }

    boolean isPlaying() {
        return playing != null;
    }

    /** Audio and video messages received on the published stream so far. */
    long mediaReceived() {
        return mediaReceived;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (handshakeTimeout != null) handshakeTimeout.cancel(false);
        if (idleWatch != null) idleWatch.stop();
        unpublish();
        stopPlaying();
        if (decoder != null) decoder.release();
        cumulation.release();
        cumulation = io.netty.buffer.Unpooled.EMPTY_BUFFER;
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (log.isInfoEnabled()) log.info("rtmp {}: {}; closing the connection", peer, cause.toString());
        ctx.close();
    }

    // ---------------------------------------------------------------- messages, inline on this loop

    @Override
    public void message(int csid, int type, int streamId, long timestamp, ByteBuf payload) {
        switch (type) {
            case RtmpMessage.AUDIO, RtmpMessage.VIDEO -> media(type, streamId, timestamp, payload);
            case RtmpMessage.DATA -> data(streamId, timestamp, payload, 0);
            case 15 -> data(streamId, timestamp, payload, 1); // AMF3 data: a leading 0 switches to AMF0
            case 20 -> command(streamId, payload, 0);
            case 17 -> command(streamId, payload, 1); // AMF3 command, the same after its leading byte
            case 4 -> userControl(payload);
            case 5 -> {
                if (payload.readableBytes() >= 4) peerWindow = payload.getUnsignedInt(payload.readerIndex());
                payload.release();
            }
            default -> payload.release(); // chunk size (applied by the decoder), abort, ack, bandwidth, shared objects, aggregates
        }
    }

    private void media(int type, int streamId, long timestamp, ByteBuf payload) {
        if (publishing != null && streamId == publishStreamId) {
            mediaReceived++;
            publishing.publish(new RtmpMessage(type, timestamp, payload), false);
        } else {
            payload.release();
        }
    }

    private void data(int streamId, long timestamp, ByteBuf payload, int skip) {
        try {
            if (publishing == null || streamId != publishStreamId || payload.readableBytes() <= skip) return;
            ByteBuf body = payload.slice(payload.readerIndex() + skip, payload.readableBytes() - skip);
            int start = body.readerIndex();
            Object first = Amf0.read(body);
            if ("@setDataFrame".equals(first)) {
                // Players expect onMetaData itself: pass on what follows the @setDataFrame string.
                int from = body.readerIndex();
                Object name = Amf0.read(body);
                boolean metadata = "onMetaData".equals(name);
                publishing.publish(new RtmpMessage(RtmpMessage.DATA, timestamp,
                        body.retainedSlice(from, body.writerIndex() - from)), metadata);
            } else {
                publishing.publish(new RtmpMessage(RtmpMessage.DATA, timestamp,
                        body.retainedSlice(start, body.writerIndex() - start)), "onMetaData".equals(first));
            }
        } finally {
            payload.release();
        }
    }

    private void userControl(ByteBuf p) {
        try {
            if (p.readableBytes() >= 6 && p.getUnsignedShort(p.readerIndex()) == 6) { // PingRequest
                ByteBuf b = ctx.alloc().buffer(6);
                b.writeShort(7).writeInt(p.getInt(p.readerIndex() + 2)); // PingResponse, same timestamp
                encoder.write(ctx, CONTROL_CSID, 4, 0, 0, b);
                b.release();
                ctx.flush();
            }
        } finally {
            p.release();
        }
    }

    // ---------------------------------------------------------------- commands

    private void command(int streamId, ByteBuf payload, int skip) {
        List<Object> v;
        try {
            payload.skipBytes(Math.min(skip, payload.readableBytes()));
            v = Amf0.readAll(payload);
        } finally {
            payload.release();
        }
        if (v.isEmpty() || !(v.get(0) instanceof String name)) throw new RtmpProtocolException("a command without a name");
        double txn = v.size() > 1 && v.get(1) instanceof Double d ? d : 0;
        switch (name) {
            case "connect" -> connect(txn, v.size() > 2 && v.get(2) instanceof Map<?, ?> m ? m : Map.of());
            case "createStream" -> reply(0, "_result", txn, null, (double) nextStreamId++);
            case "releaseStream", "FCPublish" -> reply(0, "_result", txn, null, null);
            case "getStreamLength" -> reply(0, "_result", txn, null, 0.0); // live: no length; players want a number
            case "_checkbw" -> reply(0, "_result", txn, null, null);
            case "publish" -> publish(streamId, arg(v, 3));
            case "play" -> play(streamId, arg(v, 3));
            case "FCUnpublish" -> unpublish();
            case "deleteStream", "closeStream" -> {
                unpublish();
                stopPlaying();
            }
            default -> {
                if (txn > 0) {
                    reply(0, "_error", txn, null, status("error", "NetConnection.Call.Failed", "unknown command " + name));
                }
            }
        }
        ctx.flush();
    }

    private static String arg(List<Object> v, int i) {
        return v.size() > i && v.get(i) instanceof String s ? s : "";
    }

    private void connect(double txn, Map<?, ?> info) {
        Object a = info.get("app");
        app = a instanceof String s ? s.replaceAll("/+$", "") : "";
        int q = app.indexOf('?');
        if (q >= 0) app = app.substring(0, q);
        control(5, WINDOW);
        ByteBuf bw = ctx.alloc().buffer(5);
        bw.writeInt(WINDOW).writeByte(2); // Set Peer Bandwidth, dynamic
        encoder.write(ctx, CONTROL_CSID, 6, 0, 0, bw);
        bw.release();
        // Set Chunk Size goes before the answer to connect, which is then sent in chunks of that size.
        control(1, limits.chunkSize());
        encoder.setChunkSize(limits.chunkSize());
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("fmsVer", "FMS/3,0,1,123");
        props.put("capabilities", 31.0);
        Map<String, Object> st = status("status", "NetConnection.Connect.Success", "Connection succeeded.");
        Object enc = info.get("objectEncoding");
        st.put("objectEncoding", enc instanceof Double d ? d : 0.0);
        reply(0, "_result", txn, props, st);
        if (log.isInfoEnabled()) log.info("rtmp {}: connected to app '{}'", peer, app);
    }

    private void publish(int streamId, String name) {
        Key key = Key.parse(name);
        String path = app + "/" + key.name;
        if (key.name.isEmpty() || !server.mayPublish(app, key.name, key.params)) {
            onStatus(streamId, "error", "NetStream.Publish.BadName", "publishing " + path + " is not allowed");
            log.info("rtmp {}: publishing {} refused", peer, path);
            return;
        }
        if (publishing != null) unpublish();
        RtmpStream s = server.claim(path, ctx.executor());
        if (s == null) {
            onStatus(streamId, "error", "NetStream.Publish.BadName", path + " is already being published");
            log.info("rtmp {}: {} is already being published; refused", peer, path);
            return;
        }
        publishing = s;
        publishStreamId = streamId;
        streamBegin(streamId);
        onStatus(streamId, "status", "NetStream.Publish.Start", path + " is now published.");
        log.info("rtmp {}: publishing {}", peer, path);
    }

    private void unpublish() {
        RtmpStream s = publishing;
        if (s == null) return;
        publishing = null;
        s.end(); // before the key is free: a new publisher's messages come after this one's end
        server.release(s.name, s);
        log.info("rtmp {}: stopped publishing {}", peer, s.name);
    }

    private void play(int streamId, String name) {
        Key key = Key.parse(name);
        String path = app + "/" + key.name;
        if (!server.mayPlay(app, key.name, key.params)) {
            onStatus(streamId, "error", "NetStream.Play.Failed", "playing " + path + " is not allowed");
            ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        stopPlaying();
        // A key nobody publishes now is waited for, as nginx-rtmp and SRS do: an edge's pull asks
        // once and stays (StreamNotFound left it connected and never playing; see RtmpPlayer).
        // Waiting is bounded, in time and in number, as anyone may name any key.
        RtmpPlayer p = new RtmpPlayer(this, ctx, streamId, limits);
        boolean published = server.watch(path, p);
        if (!published && !server.startWaiting(peer, path, false)) {
            server.unwatch(path, p);
            p.stop();
            onStatus(streamId, "error", "NetStream.Play.StreamNotFound", path + " is not published, and "
                    + limits.maxWaitingPlayers() + " players wait for keys already");
            ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        // Written before any of the stream: the player's drain runs on this loop, after this task.
        streamBegin(streamId);
        onStatus(streamId, "status", "NetStream.Play.Reset", "Playing and resetting " + path + ".");
        onStatus(streamId, "status", "NetStream.Play.Start", "Started playing " + path + ".");
        ByteBuf access = ctx.alloc().buffer(24);
        Amf0.write(access, "|RtmpSampleAccess");
        Amf0.write(access, Boolean.TRUE);
        Amf0.write(access, Boolean.TRUE);
        encoder.write(ctx, RtmpPlayer.DATA_CSID, RtmpMessage.DATA, streamId, 0, access);
        access.release();
        player = p;
        playing = path;
        p.waiting(!published);
        if (!published) waitStarted();
        log.info(published ? "rtmp {}: playing {}" : "rtmp {}: playing {}, which nobody publishes yet: waiting for it",
                peer, path);
    }

    /** The player waits for its key's publisher (this loop), once the server counted it. */
    private void waitStarted() {
        waiting = true;
        long ms = limits.playWaitTimeoutMillis();
        if (ms > 0) waitTimeout = ctx.executor().schedule(this::waitedTooLong, ms, TimeUnit.MILLISECONDS);
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
        log.info("rtmp {}: nobody published {} within {} s (playWaitTimeout); closing", peer, playing, seconds);
        onStatus(player.streamId(), "error", "NetStream.Play.StreamNotFound", playing + " was not published within "
                + seconds + " s");
        ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    private void stopPlaying() {
        if (playing == null) return;
        waitEnded();
        server.unwatch(playing, player);
        player.stop();
        playing = null;
        player = null;
    }

    /** A message of the played stream (this loop, from the player's drain); the caller keeps its reference. */
    void writeMedia(RtmpMessage m, int streamId) {
        int csid = m.type == RtmpMessage.AUDIO ? RtmpPlayer.AUDIO_CSID
                : m.type == RtmpMessage.VIDEO ? RtmpPlayer.VIDEO_CSID : RtmpPlayer.DATA_CSID;
        encoder.write(ctx, csid, m.type, streamId, m.timestamp, m.payload);
    }

    /**
     * The publisher of the played stream left (this loop): StreamEOF and UnpublishNotify, on which
     * ffmpeg and most players end; one that stays waits for the key's next publisher.
     */
    void streamEnded(RtmpPlayer p) {
        if (p != player) return;
        ByteBuf b = ctx.alloc().buffer(6);
        b.writeShort(1).writeInt(p.streamId()); // StreamEOF
        encoder.write(ctx, CONTROL_CSID, 4, 0, 0, b);
        b.release();
        onStatus(p.streamId(), "status", "NetStream.Play.UnpublishNotify", playing + " is now unpublished.");
        ctx.flush();
        if (!waiting && server.startWaiting(peer, playing, true)) waitStarted();
    }

    /** A publisher came for the key a player waited for (this loop): StreamBegin and PublishNotify, then its stream. */
    void streamBegan(RtmpPlayer p) {
        if (p != player) return;
        waitEnded();
        streamBegin(p.streamId());
        onStatus(p.streamId(), "status", "NetStream.Play.PublishNotify", playing + " is now published.");
        ctx.flush();
        log.info("rtmp {}: {} is published: playing it", peer, playing);
    }

    // ---------------------------------------------------------------- writing

    private void control(int type, int value) {
        ByteBuf b = ctx.alloc().buffer(4);
        b.writeInt(value);
        encoder.write(ctx, CONTROL_CSID, type, 0, 0, b);
        b.release();
    }

    private void streamBegin(int streamId) {
        ByteBuf b = ctx.alloc().buffer(6);
        b.writeShort(0).writeInt(streamId);
        encoder.write(ctx, CONTROL_CSID, 4, 0, 0, b);
        b.release();
    }

    private void reply(int streamId, Object... values) {
        ByteBuf b = ctx.alloc().buffer(256);
        for (Object v : values) Amf0.write(b, v);
        encoder.write(ctx, COMMAND_CSID, 20, streamId, 0, b);
        b.release();
    }

    private void onStatus(int streamId, String level, String code, String description) {
        reply(streamId, "onStatus", 0.0, null, status(level, code, description));
    }

    private static Map<String, Object> status(String level, String code, String description) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("level", level);
        m.put("code", code);
        m.put("description", description);
        return m;
    }

    /** A stream name as publish and play give it: {@code key?param=value&...}. */
    private record Key(String name, Map<String, String> params) {
        static Key parse(String raw) {
            int q = raw.indexOf('?');
            if (q < 0) return new Key(raw, Map.of());
            Map<String, String> params = new LinkedHashMap<>();
            for (String pair : raw.substring(q + 1).split("&")) {
                if (pair.isEmpty()) continue;
                int eq = pair.indexOf('=');
                params.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
            return new Key(raw.substring(0, q), params);
        }

        private static String decode(String s) {
            try {
                return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return s;
            }
        }
    }
}
