package org.groovecast.net.tls;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.stream.ChunkedWriteHandler;

/**
 * TLS on a server port: the certificate it presents and the handlers a connection gets in front of
 * the port's own one. The context is built once per certificate, so a handshake costs no file read;
 * a port serving plain connections has no ServerTls at all.
 */
public final class ServerTls {
    private final CertificateFiles files;
    private final SslContext context;

    public ServerTls(CertificateFiles files) {
        this.files = files;
        this.context = files.serverContext();
    }

    public CertificateFiles files() {
        return files;
    }

    /**
     * What a new connection's pipeline starts with: TLS (plain HTTP refused with a 400 that says
     * so), then the port's handler. Files the port sends with sendfile (a FileRegion, which TLS
     * cannot encrypt in the kernel) are read in chunks instead.
     */
    public ChannelHandler around(ChannelHandler connection) {
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline()
                        .addLast(
                                new PlainRequestRefusal(),
                                context.newHandler(ch.alloc()),
                                new ChunkedWriteHandler(),
                                new FileRegionChunks(),
                                connection);
            }
        };
    }

    @Override
    public String toString() {
        return files.describe() + " from " + files.certificate();
    }
}
