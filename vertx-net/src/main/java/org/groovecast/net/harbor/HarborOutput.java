package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.net.ChunkChannel;

/**
 * {@code output.harbor(encoder, mount:, port:)}: encodes once per frame on its clock, straight into
 * a pooled buffer (bytes copied buffer to buffer), and publishes that one buffer to the mount,
 * which shares it with every listener. The clock never touches a socket.
 */
public final class HarborOutput extends Output {
    private final Encoder encoder;
    private final HarborMount mount;
    private final ChunkChannel chunks = new ChunkChannel();
    private StreamContext context;
    private Encoder.Session session;

    public HarborOutput(Encoder encoder, HarborMount mount, Source source, boolean fallible) {
        super("output.harbor", source, fallible);
        this.encoder = encoder;
        this.mount = mount;
    }

    public HarborMount mount() {
        return mount;
    }

    @Override
    protected void prepareOutput(StreamContext context) {
        this.context = context;
    }

    @Override
    protected void open() throws IOException {
        session = encoder.open(context.format(), context.video(), chunks);
    }

    @Override
    protected void send(Frame frame) throws IOException {
        for (int i = 0; i < frame.metadataCount(); i++) {
            Metadata m = frame.metadata(i);
            String title = m.get("title");
            if (title != null) {
                String artist = m.get("artist");
                mount.metadata(artist == null ? title : artist + " - " + title);
            }
        }
        if (frame.position() == 0) return;
        session.encode(frame);
        session.flush();
        publish();
    }

    @Override
    protected void close() throws IOException {
        if (session != null) session.close();
        session = null;
        publish();
    }

    private void publish() {
        ByteBuf c = chunks.take();
        if (c != null) mount.publish(c);
    }
}
