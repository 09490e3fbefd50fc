package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import org.groovecast.api.Encoder;
import org.groovecast.api.Source;
import org.groovecast.net.output.EncodedOutput;

/**
 * {@code output.harbor(encoder, mount:, port:)}: encodes once per frame on its clock and publishes
 * that one buffer to the mount, which shares it with every listener. The clock never touches a
 * socket.
 */
public final class HarborOutput extends EncodedOutput {
    private final int port;
    private final HarborMount mount;

    public HarborOutput(
            Encoder encoder, int port, HarborMount mount, Source source, boolean fallible) {
        super("output.harbor", encoder, source, fallible);
        this.port = port;
        this.mount = mount;
    }

    /** A reload keeps the mount (and its listeners) itself: the harbor hands the same one over. */
    @Override
    public String endpoint() {
        return ":" + port + mount.path();
    }

    /** The harbor port the mount is served on. */
    public int port() {
        return port;
    }

    public HarborMount mount() {
        return mount;
    }

    /**
     * The encoder is open: the mount can describe the stream as Icecast does ({@code
     * /admin/stats}).
     */
    @Override
    protected void connect() {
        if (context() != null) {
            mount.audio(
                    new HarborMount.AudioInfo(
                            context().format().channels(),
                            context().format().sampleRate(),
                            encoder().bitrate()));
        }
    }

    @Override
    protected void deliver(ByteBuf chunk) {
        mount.publish(chunk);
    }

    @Override
    protected void title(String song) {
        mount.metadata(song);
    }
}
