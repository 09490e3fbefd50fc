package org.groovecast.net.icecast;

import io.netty.buffer.ByteBuf;
import io.vertx.core.Vertx;
import java.util.function.Supplier;
import org.groovecast.api.Connecting;
import org.groovecast.api.Encoder;
import org.groovecast.api.Source;
import org.groovecast.net.output.EncodedOutput;

/**
 * {@code output.icecast(encoder, s, host:, port:, password:, mount:)}: encodes on its clock and
 * hands each frame's bytes to an {@link IcecastClient}, which keeps the source connection up. The
 * encoder runs whether or not the server is reachable, so the stream is continuous for whoever
 * listens when the connection comes back, and the clock never waits for the network.
 */
public final class IcecastOutput extends EncodedOutput implements Connecting {
    private volatile IcecastClient client;
    private final Supplier<Vertx> vertx;

    public IcecastOutput(
            Encoder encoder,
            IcecastClient client,
            Supplier<Vertx> vertx,
            Source source,
            boolean fallible) {
        this("output.icecast", encoder, client, vertx, source, fallible);
    }

    /**
     * @param kind {@code output.shoutcast} for a client speaking the Shoutcast v1 protocol
     */
    public IcecastOutput(
            String kind,
            Encoder encoder,
            IcecastClient client,
            Supplier<Vertx> vertx,
            Source source,
            boolean fallible) {
        super(kind, encoder, source, fallible);
        this.client = client;
        this.vertx = vertx;
    }

    public IcecastClient client() {
        return client;
    }

    /**
     * After a reload the output may hold its predecessor's connection, or none while it hands it
     * over.
     */
    @Override
    public boolean isConnected() {
        IcecastClient c = client;
        return c != null && c.isConnected();
    }

    /**
     * The server, mount, stream headers and how it connects (TLS checks, Shoutcast's source port):
     * a reload keeps the connection only if all are the same.
     */
    @Override
    public String endpoint() {
        return client.where() + " (" + client.target().contentType() + client.settings() + ")";
    }

    @Override
    protected void connect() {
        client.audioInfo(
                context().format().sampleRate(),
                context().format().channels(),
                encoder().bitrate());
        // On a reload the connection of the output this one replaces is taken over in adopt().
        if (predecessor() == null) client.start(vertx.get());
    }

    /** Takes over the predecessor's source connection: the server never sees the source leave. */
    @Override
    protected void adopt(org.groovecast.api.Source previous) {
        IcecastOutput p = (IcecastOutput) previous;
        IcecastClient own = client;
        IcecastClient kept = p.client;
        p.client = null;
        if (kept == null || !kept.sameConnection(own)) {
            // Stream headers changed (name, description...), or how it connects (TLS checks, source
            // port): the server must hear the new ones, or the new checks be made, and the old
            // connection leaves first so that the mount is free.
            if (kept != null) kept.close();
            client.start(vertx.get());
            return;
        }
        kept.onErrorFrom(own);
        kept.audioInfo(
                context().format().sampleRate(),
                context().format().channels(),
                encoder().bitrate());
        client = kept;
    }

    @Override
    protected void deliver(ByteBuf chunk) {
        IcecastClient c = client;
        if (c != null) c.send(chunk);
        else chunk.release(); // handed over to a reloaded station's output
    }

    private long connectionsSeen;

    /** A new source connection: the server has not seen the stream's headers (Ogg's) yet. */
    @Override
    protected boolean restartWanted() {
        IcecastClient c = client;
        if (c == null || c.connections() == connectionsSeen) return false;
        connectionsSeen = c.connections();
        return true;
    }

    @Override
    protected void title(String song) {
        // Ogg: Icecast reads the title from the stream's own headers; its metadata update would
        // rewrite them again with the song split its own way (Liquidsoap's icy_metadata="guess").
        if (encoder().inBandMetadata()) return;
        IcecastClient c = client;
        if (c != null) c.metadata(song);
    }

    @Override
    protected void disconnect() {
        IcecastClient c = client;
        if (c != null) c.close();
    }
}
