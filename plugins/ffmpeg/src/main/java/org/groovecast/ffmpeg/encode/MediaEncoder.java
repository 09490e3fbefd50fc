package org.groovecast.ffmpeg.encode;

import java.io.IOException;
import java.util.List;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.api.Frame;

/**
 * The encoders of one encoding: audio (stream 0) and, when the script asked for it, video (stream
 * 1), fed from the same frames so that both stay on the frames' sample clock.
 */
public final class MediaEncoder implements AutoCloseable {
    /**
     * Receives each packet with the index of its stream; the packet is only valid during the call.
     */
    @FunctionalInterface
    public interface Sink {
        void accept(AVPacket packet, AVRational timeBase, int stream) throws IOException;
    }

    private final AudioEncoder audio;
    private final VideoEncoder video;
    private Sink target;
    // Bound once, so that encoding a frame allocates no lambda.
    private final AudioEncoder.PacketSink toAudio = (p, tb) -> target.accept(p, tb, 0);
    private final AudioEncoder.PacketSink toVideo = (p, tb) -> target.accept(p, tb, 1);

    /** Takes ownership of both encoders; {@code video} may be null. */
    MediaEncoder(AudioEncoder audio, VideoEncoder video) {
        this.audio = audio;
        this.video = video;
    }

    public boolean hasVideo() {
        return video != null;
    }

    /** Codec contexts by stream index, for the muxer. */
    public List<AVCodecContext> contexts() {
        return video == null ? List.of(audio.context()) : List.of(audio.context(), video.context());
    }

    /** Forces video keyframes on a grid of {@code samples}, where segments will be cut. */
    public void keyframes(long samples) {
        if (video != null) video.keyframes(samples);
    }

    /** Encodes samples [0, frame.position()) and the pictures due in them. */
    public void encode(Frame frame, Sink sink) throws IOException {
        target = sink;
        audio.encode(frame, 0, frame.position(), toAudio);
        if (video != null) video.encode(frame, 0, frame.position(), toVideo);
    }

    /** Drains both encoders. */
    public void finish(Sink sink) throws IOException {
        target = sink;
        audio.finish(toAudio);
        if (video != null) video.finish(toVideo);
    }

    @Override
    public void close() {
        audio.close();
        if (video != null) video.close();
    }
}
