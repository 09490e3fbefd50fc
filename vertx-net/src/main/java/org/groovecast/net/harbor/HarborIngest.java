package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/** A live input's side of the harbor: where Icecast source clients connect. */
public interface HarborIngest {
    /** The mount path, {@code /live}. */
    String path();

    /**
     * A source client sent its request head (on the connection's event loop). Answers it: 401,
     * 403 with the reason, or the go-ahead; returns the session that takes the stream, or null
     * when refused (the answer is written and the connection closing).
     */
    Session connect(RequestHead head, ChannelHandlerContext ctx, String peer);

    /** {@code /admin/metadata?mode=updinfo&mount=...&song=...}: returns the status to answer. */
    int adminMetadata(RequestHead head);

    /** A connected source client. */
    interface Session {
        /** Bytes of the stream, in order, on the event loop; takes ownership of {@code data}. */
        void feed(ByteBuf data);

        /** The connection closed. */
        void disconnected();
    }
}
