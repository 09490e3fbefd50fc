package org.groovecast.net.icecast;

import io.netty.buffer.ByteBuf;
import io.vertx.core.Vertx;
import java.util.function.Supplier;
import org.groovecast.api.Encoder;
import org.groovecast.api.Source;
import org.groovecast.net.EncodedOutput;

/**
 * {@code output.icecast(encoder, s, host:, port:, password:, mount:)}: encodes on its clock and
 * hands each frame's bytes to an {@link IcecastClient}, which keeps the source connection up.
 * The encoder runs whether or not the server is reachable, so the stream is continuous for
 * whoever listens when the connection comes back, and the clock never waits for the network.
 */
public final class IcecastOutput extends EncodedOutput {
    private final IcecastClient client;
    private final Supplier<Vertx> vertx;

    public IcecastOutput(Encoder encoder, IcecastClient client, Supplier<Vertx> vertx, Source source, boolean fallible) {
        super("output.icecast", encoder, source, fallible);
        this.client = client;
        this.vertx = vertx;
    }

    public IcecastClient client() {
        return client;
    }

    @Override
    protected void connect() {
        client.start(vertx.get());
    }

    @Override
    protected void deliver(ByteBuf chunk) {
        client.send(chunk);
    }

    @Override
    protected void title(String song) {
        client.metadata(song);
    }

    @Override
    protected void disconnect() {
        client.close();
    }
}
