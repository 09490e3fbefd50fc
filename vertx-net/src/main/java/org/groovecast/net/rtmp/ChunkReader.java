package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * The chunks a server connection reads after the handshake, decoded straight from each socket
 * read's buffer. Only a chunk header split across reads waits, in the connection's cumulation,
 * completed a few bytes at a time so that payload bytes are still copied once, into their message
 * (the decoder takes chunk data as it comes and leaves only a partial header unread).
 */
final class ChunkReader {
    /**
     * What is moved into the cumulation at a time to complete a split header: more than any header
     * is long.
     */
    private static final int HEADER_STEP = 32;

    private final ChannelHandlerContext ctx;

    /**
     * The connection's: holds the first chunks after C2, then a split header; its owner releases
     * it.
     */
    private final ByteBuf cumulation;

    private final ChunkDecoder decoder;
    private final ChunkDecoder.Sink sink;

    ChunkReader(
            ChannelHandlerContext ctx,
            ByteBuf cumulation,
            ChunkDecoder decoder,
            ChunkDecoder.Sink sink) {
        this.ctx = ctx;
        this.cumulation = cumulation;
        this.decoder = decoder;
        this.sink = sink;
    }

    /** One socket read; {@code in} stays the caller's. */
    void read(ByteBuf in) {
        if (cumulation.isReadable()) {
            decoder.decode(
                    cumulation, sink); // what waits: the first chunks after C2, or a split header
            cumulation.discardReadBytes();
            while (cumulation.isReadable() && in.isReadable()) {
                cumulation.writeBytes(in, Math.min(in.readableBytes(), HEADER_STEP));
                decoder.decode(cumulation, sink);
                cumulation.discardReadBytes();
            }
            if (cumulation.isReadable()) return;
        }
        decoder.decode(in, sink);
        // A message handled above may have closed the connection: then nothing is kept.
        if (in.isReadable() && ctx.channel().isActive()) cumulation.writeBytes(in);
    }

    /** The connection closed: the partial messages go. */
    void release() {
        decoder.release();
    }
}
