package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.util.ReferenceCountUtil;

/**
 * In front of a browser DJ's WebSocket decoder until the DJ's login succeeds: refuses a frame, or a
 * message of fragments, over {@value #LIMIT} bytes as soon as its header says so, before the
 * decoder would gather it; so that a stranger cannot make the server hold and parse a 1 MiB hello
 * on the event loop. It reads the frames' headers only and holds no bytes, so it can be taken out
 * between any two reads ({@link WebcastConnection} does once the DJ streams, the decoder's own
 * limit then applying).
 */
final class WebcastFrameLimit extends ChannelInboundHandlerAdapter {
    /**
     * A hello is a few hundred bytes; this leaves room for long passwords and whatever a client
     * adds.
     */
    static final int LIMIT = 16 * 1024;

    /** The header being read: 2 bytes, up to 8 of extended length, 4 of mask. */
    private final byte[] header = new byte[14];

    private int have;

    /** Payload bytes of the current frame still to pass. */
    private long payloadLeft;

    /** Payload bytes of the current data message so far, its fragments joined. */
    private long message;

    private boolean refused;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof ByteBuf b && overLimit(b)) {
            refused = true;
            b.release();
            ctx.fireExceptionCaught(
                    new CorruptedWebSocketFrameException(
                            WebSocketCloseStatus.MESSAGE_TOO_BIG,
                            "message over " + LIMIT + " bytes before the login"));
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * Follows the frames through {@code b} (its indexes untouched); whether a data frame or message
     * goes over the limit.
     */
    private boolean overLimit(ByteBuf b) {
        int i = b.readerIndex();
        int end = b.writerIndex();
        while (i < end) {
            if (payloadLeft > 0) {
                int skip = (int) Math.min(payloadLeft, end - i);
                i += skip;
                payloadLeft -= skip;
                continue;
            }
            header[have++] = b.getByte(i++);
            if (have < 2) continue;
            int len7 = header[1] & 0x7f;
            int need =
                    2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + ((header[1] & 0x80) != 0 ? 4 : 0);
            if (have < need) continue;
            long length = len7;
            if (len7 >= 126) {
                length = 0;
                for (int k = 2; k < (len7 == 126 ? 4 : 10); k++)
                    length = (length << 8) | (header[k] & 0xff);
            }
            have = 0;
            int opcode = header[0] & 0x0f;
            // Control frames hold 125 bytes at most; the decoder refuses longer ones itself.
            if (opcode < 8) {
                message = opcode == 0 ? message + length : length;
                if (length < 0 || length > LIMIT || message > LIMIT) return true;
            }
            payloadLeft = length;
        }
        return false;
    }
}
