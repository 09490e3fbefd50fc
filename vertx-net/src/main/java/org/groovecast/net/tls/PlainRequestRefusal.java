package org.groovecast.net.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The first bytes of a connection to a TLS port: a TLS record goes on to the TLS handler; plain
 * HTTP (someone typed {@code http://}) gets a readable 400 saying to use https, as nginx does,
 * rather than a connection closed on a record error that no browser explains.
 */
final class PlainRequestRefusal extends ChannelInboundHandlerAdapter {
    /** The content type of a TLS handshake record: every ClientHello starts with it. */
    private static final int HANDSHAKE = 0x16;

    private static final String BODY =
            "This port speaks HTTPS: ask for https:// instead of http://\n";
    private static final String REPLY =
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: "
                    + BODY.length()
                    + "\r\nConnection: close\r\n\r\n"
                    + BODY;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.pipeline().remove(this);
        if (msg instanceof ByteBuf b
                && b.isReadable()
                && b.getUnsignedByte(b.readerIndex()) != HANDSHAKE) {
            b.release();
            ctx.writeAndFlush(ByteBufUtil.writeAscii(ctx.alloc(), REPLY))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
