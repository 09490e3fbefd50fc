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

    /** The tags of the stream being encoded, for a stream begun anew on a new connection. */
    private Metadata tags = Metadata.EMPTY;

    /** Whether the current session encoded sound yet: a chain before it replaces it unheard. */
    private boolean sounded;

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

    /**
     * Whether the stream must begin anew now, for an encoder whose headers carry its titles (Ogg):
     * a new connection to a server that has not seen them. Called on the clock, once a frame.
     */
    protected boolean restartWanted() {
        return false;
    }

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
        sounded = false;
        connect();
    }

    @Override
    protected final void send(Frame frame) throws IOException {
        Metadata tags = null;
        for (int i = 0; i < frame.metadataCount(); i++) {
            Metadata m = frame.metadata(i);
            String title = m.get("title");
            if (title != null) {
                String artist = m.get("artist");
                title(artist == null ? title : artist + " - " + title);
                tags = m;
            }
        }
        if (encoder.inBandMetadata()) {
            if (tags != null) {
                this.tags = tags;
                chain(tags);
            } else if (restartWanted()) {
                chain(this.tags);
            }
        }
        if (frame.position() == 0) return;
        session.encode(frame);
        sounded = true;
        session.flush();
        deliverTaken();
    }

    /**
     * A new title in a format that carries it in band: the current stream ends (Ogg's last page)
     * and a new one begins in the same bytes with the track's tags, from the frame that brought
     * them (within a frame of the track's start), as Liquidsoap chains Ogg streams.
     */
    private void chain(Metadata tags) throws IOException {
        if (session != null) {
            Encoder.Session ending = session;
            // Null first: a close that throws must not leave a closed session to encode into.
            session = null;
            ending.close();
            // A stream with no sound yet (the first track's title in the first frame) is not sent.
            if (!sounded) {
                ByteBuf unheard = chunks.take();
                if (unheard != null) unheard.release();
            }
        }
        session = encoder.open(context.format(), context.video(), chunks, ExportedTags.of(tags));
        sounded = false;
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
