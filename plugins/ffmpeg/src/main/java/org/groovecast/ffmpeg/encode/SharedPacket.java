package org.groovecast.ffmpeg.encode;

import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_ref;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;

import java.io.IOException;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.ffmpeg.shared.Av;

/**
 * One encoded packet travelling in frames from a shared encode to the outputs that mux it. It holds
 * a reference to FFmpeg's buffer, not a copy; outputs reference it again when they write. Packets
 * are pooled by their {@link EncodeSource} and reused on its next tick.
 */
public final class SharedPacket implements AutoCloseable {
    public final EncodeSource origin;
    public final AVPacket packet = av_packet_alloc();
    private AVRational timeBase;

    SharedPacket(EncodeSource origin) {
        this.origin = origin;
    }

    void fill(AVPacket from, AVRational base) throws IOException {
        Av.check(av_packet_ref(packet, from), "cannot reference a packet");
        this.timeBase = base;
    }

    public AVRational timeBase() {
        return timeBase;
    }

    void release() {
        av_packet_unref(packet);
    }

    @Override
    public void close() {
        av_packet_free(packet);
    }
}
