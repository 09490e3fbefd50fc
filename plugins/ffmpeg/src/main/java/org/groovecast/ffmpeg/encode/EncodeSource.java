package org.groovecast.ffmpeg.encode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.groovecast.api.Frame;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.Transform;

/**
 * {@code ffmpeg.encode.audio(encoder, s)}: encodes its source once and passes the packets along in
 * the frames, beside the audio, so that any number of outputs can mux them with {@code copy()}
 * (three encodes for five outputs, instead of five). Packets are pooled and reused every tick.
 */
public final class EncodeSource extends Transform {
    private final FfmpegEncoder encoding;
    private final List<SharedPacket> pool = new ArrayList<>();
    private int used;
    private long tick = -1;
    private StreamContext context;
    private AudioEncoder encoder;

    EncodeSource(FfmpegEncoder encoding, Source input) {
        super("ffmpeg.encode.audio", input);
        this.encoding = encoding;
    }

    public FfmpegEncoder encoding() {
        return encoding;
    }

    /** The codec, for muxers that copy these packets. */
    public AVCodecContext codec() {
        return encoder.context();
    }

    @Override
    protected void onPrepare(StreamContext ctx) {
        this.context = ctx;
        try {
            // Global headers (codec extradata) suit every muxer: ADTS and MPEG-TS add their own
            // framing.
            encoder = encoding.newAudioEncoder(ctx.format(), true);
        } catch (IOException e) {
            throw new ScriptException(
                    id() + ": cannot open " + encoding + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void generate(Frame frame) {
        recycleIfNewTick();
        int start = frame.position();
        input.get(frame);
        int end = frame.position();
        if (end == start) return;
        try {
            encoder.encode(
                    frame,
                    start,
                    end,
                    (packet, timeBase) -> {
                        SharedPacket p = next();
                        p.fill(packet, timeBase);
                        frame.addEncoded(start, p);
                    });
        } catch (IOException e) {
            throw new IllegalStateException(id() + ": encoding failed: " + e.getMessage(), e);
        }
    }

    /** Packets of the previous tick were muxed by then: their buffers go back to FFmpeg. */
    private void recycleIfNewTick() {
        long now = context.clock() == null ? tick + 1 : context.clock().getTicks();
        if (now == tick) return;
        tick = now;
        for (int i = 0; i < used; i++) pool.get(i).release();
        used = 0;
    }

    private SharedPacket next() {
        if (used == pool.size()) pool.add(new SharedPacket(this));
        return pool.get(used++);
    }

    @Override
    protected void onShutdown() {
        for (SharedPacket p : pool) {
            p.release();
            p.close();
        }
        pool.clear();
        if (encoder != null) encoder.close();
        encoder = null;
    }
}
