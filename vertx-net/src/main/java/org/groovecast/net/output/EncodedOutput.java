package org.groovecast.net.output;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/**
 * An output that encodes on its clock and hands each frame's bytes, in one pooled buffer, to the
 * network side ({@link #deliver}), with titles ({@code artist - title}) as they change. Whatever
 * happens to sockets happens on event loops; this side never waits for them.
 */
public abstract class EncodedOutput extends Output {
    private final Encoder encoder;
    private final ChunkChannel chunks = new ChunkChannel();
    private StreamContext context;
    private Encoder.Session session;

    protected EncodedOutput(String kind, Encoder encoder, Source source, boolean fallible) {
        super(kind, source, fallible);
        this.encoder = encoder;
    }

    /** The format this output encodes to. */
    public final Encoder encoder() {
        return encoder;
    }

    /** Takes one frame's encoded bytes; the callee owns the buffer. */
    protected abstract void deliver(ByteBuf chunk);

    /** A new title for listeners, {@code artist - title} or the title alone. */
    protected abstract void title(String song);

    /** Opens the network side, once the encoder is open. */
    protected void connect() {}

    /** Closes the network side, after the encoder's last bytes were delivered. */
    protected void disconnect() {}

    @Override
    protected final void prepareOutput(StreamContext context) {
        this.context = context;
    }

    @Override
    protected final void open() throws IOException {
        session = encoder.open(context.format(), context.video(), chunks);
        connect();
    }

    @Override
    protected final void send(Frame frame) throws IOException {
        for (int i = 0; i < frame.metadataCount(); i++) {
            Metadata m = frame.metadata(i);
            String title = m.get("title");
            if (title != null) {
                String artist = m.get("artist");
                title(artist == null ? title : artist + " - " + title);
            }
        }
        if (frame.position() == 0) return;
        session.encode(frame);
        session.flush();
        deliverTaken();
    }

    @Override
    protected final void close() throws IOException {
        try {
            if (session != null) session.close();
            deliverTaken();
        } finally {
            session = null;
            chunks.close();
            disconnect();
        }
    }

    private void deliverTaken() {
        ByteBuf c = chunks.take();
        if (c != null) deliver(c);
    }
}
