package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/**
 * {@code output.harbor(encoder, mount:, port:)}: encodes once per frame on its clock, straight into
 * a pooled buffer (bytes copied buffer to buffer), and publishes that one buffer to the mount,
 * which shares it with every listener. The clock never touches a socket.
 */
public final class HarborOutput extends Output {
    private final Encoder encoder;
    private final HarborMount mount;
    private final Chunks chunks = new Chunks();
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
        chunks.publish();
    }

    @Override
    protected void close() throws IOException {
        if (session != null) session.close();
        session = null;
        chunks.publish();
    }

    /** The encoder's channel: collects one frame's bytes in a pooled direct buffer. */
    private final class Chunks implements WritableByteChannel {
        private ByteBuf current;

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            if (current == null) current = PooledByteBufAllocator.DEFAULT.directBuffer(Math.max(n, 4096));
            current.writeBytes(src);
            return n;
        }

        void publish() {
            if (current == null) return;
            ByteBuf c = current;
            current = null;
            mount.publish(c);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
