package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commands a server connection answers, by name: {@code connect} (the app, and the control
 * messages that set up the connection), the publisher's dialogue as OBS and FFmpeg hold it ({@code
 * releaseStream}, {@code FCPublish}, {@code createStream}, {@code publish}), a player's ({@code
 * createStream}, {@code getStreamLength}, {@code play}), and their ends ({@code FCUnpublish},
 * {@code deleteStream}, {@code closeStream}). {@code publish} and {@code play} go to the
 * connection's roles. An unknown command that expects an answer gets {@code _error}; one that does
 * not is ignored. Each command's answers are flushed together.
 */
final class CommandDispatch {
    // The connection's logger: what one connection did reads as one story, under the name operators
    // filter on.
    private static final Logger log = LoggerFactory.getLogger(RtmpConnection.class);

    /**
     * The Window Acknowledgement Size and peer bandwidth asked of a client (nginx-rtmp's and FMS's
     * 2.5 MB).
     */
    private static final int WINDOW = 2_500_000;

    private final RtmpServer.Limits limits;
    private final ChannelHandlerContext ctx;
    private final MessageWriter out;
    private final PublisherRole publisher;
    private final PlayerRole player;
    private final String peer;

    /**
     * The app named by {@code connect}, without trailing slashes or a query: where the stream keys
     * live.
     */
    private String app = "";

    private int nextStreamId = 1;

    CommandDispatch(
            RtmpServer.Limits limits,
            ChannelHandlerContext ctx,
            MessageWriter out,
            PublisherRole publisher,
            PlayerRole player,
            String peer) {
        this.limits = limits;
        this.ctx = ctx;
        this.out = out;
        this.publisher = publisher;
        this.player = player;
        this.peer = peer;
    }

    /**
     * A command message on {@code streamId}: AMF0 after {@code skip} leading bytes (1 for the AMF3
     * command type, which every client sends as AMF0 after it); takes {@code payload}.
     *
     * @throws RtmpProtocolException when it has no name, or is not AMF0
     */
    void dispatch(int streamId, ByteBuf payload, int skip) {
        List<Object> v;
        try {
            payload.skipBytes(Math.min(skip, payload.readableBytes()));
            v = Amf0.readAll(payload);
        } finally {
            payload.release();
        }
        if (v.isEmpty() || !(v.get(0) instanceof String name))
            throw new RtmpProtocolException("a command without a name");
        double txn = v.size() > 1 && v.get(1) instanceof Double d ? d : 0;
        switch (name) {
            case "connect" ->
                    connect(txn, v.size() > 2 && v.get(2) instanceof Map<?, ?> m ? m : Map.of());
            case "createStream" -> out.command(0, "_result", txn, null, (double) nextStreamId++);
            case "releaseStream", "FCPublish" -> out.command(0, "_result", txn, null, null);
            case "getStreamLength" ->
                    out.command(
                            0, "_result", txn, null, 0.0); // live: no length; players want a number
            case "_checkbw" -> out.command(0, "_result", txn, null, null);
            case "publish" -> publisher.publish(streamId, app, arg(v, 3));
            case "play" -> player.play(streamId, app, arg(v, 3));
            case "FCUnpublish" -> publisher.unpublish();
            case "deleteStream", "closeStream" -> {
                publisher.unpublish();
                player.stop();
            }
            default -> {
                if (txn > 0) {
                    out.command(
                            0,
                            "_error",
                            txn,
                            null,
                            MessageWriter.status(
                                    "error",
                                    "NetConnection.Call.Failed",
                                    "unknown command " + name));
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
        out.windowAcknowledgementSize(WINDOW);
        out.setPeerBandwidth(WINDOW);
        // Set Chunk Size goes before the answer to connect, which is then sent in chunks of that
        // size.
        out.setChunkSize(limits.chunkSize());
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("fmsVer", "FMS/3,0,1,123");
        props.put("capabilities", 31.0);
        Map<String, Object> st =
                MessageWriter.status(
                        "status", "NetConnection.Connect.Success", "Connection succeeded.");
        Object enc = info.get("objectEncoding");
        st.put("objectEncoding", enc instanceof Double d ? d : 0.0);
        out.command(0, "_result", txn, props, st);
        if (log.isInfoEnabled()) log.info("rtmp {}: connected to app '{}'", peer, app);
    }
}
