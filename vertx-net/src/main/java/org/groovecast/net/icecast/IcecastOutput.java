package org.groovecast.net.icecast;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.function.Supplier;
import io.vertx.core.Vertx;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.net.ChunkChannel;

/**
 * {@code output.icecast(encoder, s, host:, port:, password:, mount:)}: encodes on its clock and
 * hands each frame's bytes to an {@link IcecastClient}, which keeps the source connection up.
 * The encoder runs whether or not the server is reachable, so the stream is continuous for
 * whoever listens when the connection comes back, and the clock never waits for the network.
 */
public final class IcecastOutput extends Output {
    private final Encoder encoder;
    private final IcecastClient client;
    private final Supplier<Vertx> vertx;
    private final ChunkChannel chunks = new ChunkChannel();
    private StreamContext context;
    private Encoder.Session session;

    public IcecastOutput(Encoder encoder, IcecastClient client, Supplier<Vertx> vertx, Source source, boolean fallible) {
        super("output.icecast", source, fallible);
        this.encoder = encoder;
        this.client = client;
        this.vertx = vertx;
    }

    public IcecastClient client() {
        return client;
    }

    @Override
    protected void prepareOutput(StreamContext context) {
        this.context = context;
    }

    @Override
    protected void open() throws IOException {
        session = encoder.open(context.format(), context.video(), chunks);
        client.start(vertx.get());
    }

    @Override
    protected void send(Frame frame) throws IOException {
        for (int i = 0; i < frame.metadataCount(); i++) {
            Metadata m = frame.metadata(i);
            String title = m.get("title");
            if (title != null) {
                String artist = m.get("artist");
                client.metadata(artist == null ? title : artist + " - " + title);
            }
        }
        if (frame.position() == 0) return;
        session.encode(frame);
        session.flush();
        ByteBuf c = chunks.take();
        if (c != null) client.send(c);
    }

    @Override
    protected void close() throws IOException {
        try {
            if (session != null) session.close();
        } finally {
            session = null;
            chunks.close();
            client.close();
        }
    }
}
