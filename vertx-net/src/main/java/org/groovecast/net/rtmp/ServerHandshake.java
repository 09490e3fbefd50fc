package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of the handshake as its bytes arrive in any pieces: C0+C1 answered with
 * S0+S1+S2 ({@link Handshake#answer}), then C2 read and skipped. A wrong version is refused as soon
 * as C0 arrives, before C1; a client that does not finish within the timeout is closed, so a
 * connection that never speaks RTMP holds nothing for long.
 */
final class ServerHandshake {
    // The connection's logger: what one connection did reads as one story, under the name operators
    // filter on.
    private static final Logger log = LoggerFactory.getLogger(RtmpConnection.class);

    private enum Phase {
        C0C1,
        C2,
        DONE
    }

    private Phase phase = Phase.C0C1;
    private ScheduledFuture<?> timeout;

    /** Starts the clock (the connection's loop, once it is active). */
    void start(ChannelHandlerContext ctx, long timeoutMillis, String peer) {
        timeout =
                ctx.executor()
                        .schedule(
                                () -> {
                                    if (phase != Phase.DONE) {
                                        log.info(
                                                "rtmp {}: no handshake within {} ms; closing",
                                                peer,
                                                timeoutMillis);
                                        ctx.close();
                                    }
                                },
                                timeoutMillis,
                                TimeUnit.MILLISECONDS);
    }

    boolean isDone() {
        return phase == Phase.DONE;
    }

    /**
     * Reads what it can of {@code in} (the connection's cumulation, with all the bytes so far),
     * answering C0+C1 once they are whole; true once C2 is read, with the bytes after it (the first
     * chunks) left unread in {@code in}.
     *
     * @throws RtmpProtocolException when C0 is not 3
     */
    boolean read(ChannelHandlerContext ctx, ByteBuf in) {
        if (phase == Phase.C0C1) {
            if (!in.isReadable()) return false;
            int version = in.getUnsignedByte(in.readerIndex());
            if (version != 3)
                throw new RtmpProtocolException("handshake: version " + version + ", not 3");
            if (in.readableBytes() < 1 + Handshake.SIZE) return false;
            ByteBuf out = ctx.alloc().buffer(1 + 2 * Handshake.SIZE);
            Handshake.answer(in, out);
            ctx.writeAndFlush(out, ctx.voidPromise());
            phase = Phase.C2;
        }
        if (phase == Phase.C2) {
            if (in.readableBytes() < Handshake.SIZE) return false;
            in.skipBytes(Handshake.SIZE);
            phase = Phase.DONE;
            if (timeout != null) timeout.cancel(false);
        }
        return true;
    }

    /** The connection closed. */
    void stop() {
        if (timeout != null) timeout.cancel(false);
    }
}
