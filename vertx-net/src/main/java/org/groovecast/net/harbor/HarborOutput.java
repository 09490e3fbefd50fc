package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import org.groovecast.api.Encoder;
import org.groovecast.api.Source;
import org.groovecast.net.EncodedOutput;

/**
 * {@code output.harbor(encoder, mount:, port:)}: encodes once per frame on its clock and publishes
 * that one buffer to the mount, which shares it with every listener. The clock never touches a socket.
 */
public final class HarborOutput extends EncodedOutput {
    private final HarborMount mount;

    public HarborOutput(Encoder encoder, HarborMount mount, Source source, boolean fallible) {
        super("output.harbor", encoder, source, fallible);
        this.mount = mount;
    }

    public HarborMount mount() {
        return mount;
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
