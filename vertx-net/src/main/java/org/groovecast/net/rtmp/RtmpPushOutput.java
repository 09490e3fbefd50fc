package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.vertx.core.Vertx;
import java.util.function.Supplier;
import org.groovecast.api.Connecting;
import org.groovecast.api.Encoder;
import org.groovecast.api.Source;
import org.groovecast.net.output.EncodedOutput;

/**
 * {@code output.rtmp(url, ffmpeg(format: 'flv', ...), s)}: encodes to FLV on its clock, cuts the
 * bytes into tags and hands them to an {@link RtmpPushClient} as RTMP messages. The encoder runs
 * whether or not the server is reachable, so the clock never waits for the network.
 */
public final class RtmpPushOutput extends EncodedOutput implements Connecting {
    private final RtmpPushClient client;
    private final Supplier<Vertx> vertx;
    private final FlvTagReader tags = new FlvTagReader(PooledByteBufAllocator.DEFAULT);
    private final FlvTagReader.Sink toClient;

    public RtmpPushOutput(
            Encoder encoder,
            RtmpPushClient client,
            Supplier<Vertx> vertx,
            Source source,
            boolean fallible) {
        super("output.rtmp", encoder, source, fallible);
        if (!encoder.contentType().contains("flv")) {
            throw new org.groovecast.api.ScriptException(
                    "output.rtmp(): the encoder must write FLV: ffmpeg(format: 'flv', ...), "
                            + "got "
                            + encoder.contentType());
        }
        this.client = client;
        this.vertx = vertx;
        this.toClient = client::send;
    }

    @Override
    public String endpoint() {
        return client.url();
    }

    @Override
    public boolean isConnected() {
        return client.isConnected();
    }

    @Override
    protected void connect() {
        client.start(vertx.get());
    }

    @Override
    protected void deliver(ByteBuf chunk) {
        try {
            tags.read(chunk, toClient);
        } finally {
            chunk.release();
        }
    }

    @Override
    protected void title(String song) {
        // FLV carries no titles mid-stream that players show; nothing to send.
    }

    @Override
    protected void disconnect() {
        client.close();
        tags.release();
    }
}
