package org.groovecast.ffmpeg.encode;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_FLAG_GLOBAL_HEADER;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_encoder_by_name;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_frame;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_VIDEO;
import static org.bytedeco.ffmpeg.global.avutil.AV_PICTURE_TYPE_I;
import static org.bytedeco.ffmpeg.global.avutil.AV_PICTURE_TYPE_NONE;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_NONE;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_make_writable;

import java.io.IOException;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.javacpp.IntPointer;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.Image;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.shared.Av;
import org.groovecast.ffmpeg.shared.ImageFrame;
import org.groovecast.ffmpeg.shared.Scaler;

/**
 * One FFmpeg video encoder at a constant frame rate. Video frame {@code k} shows the last picture
 * attached at or before its sample position; with no new picture the previous one repeats (black
 * until the first), so a source's own frame rate never matters. Codecs open with {@code
 * thread_count = 0} unless the script set threads. Natives are freed by {@link #close()}.
 */
final class VideoEncoder implements AutoCloseable {
    private final VideoFormat video;
    private final AudioFormat audio;
    private AVCodecContext codec;
    private AVPacket packet;
    private AVRational timeBase;

    /** The picture on screen, copied from the frames (their images are only valid for one tick). */
    private ImageFrame current;

    /** The picture in the codec's pixel format when that is not yuv420p. */
    private AVFrame converted;

    private final Scaler scaler;
    private long next;
    private long samples;
    private long keyEvery;
    private long nextKey;

    VideoEncoder(
            String codecName,
            Map<String, String> options,
            int threads,
            VideoFormat video,
            AudioFormat audio,
            int scalingThreads,
            boolean globalHeader)
            throws IOException {
        Av.init();
        this.video = video;
        this.audio = audio;
        this.scaler = new Scaler(scalingThreads);
        this.current = new ImageFrame(video);
        boolean ok = false;
        try {
            AVCodec enc = avcodec_find_encoder_by_name(codecName);
            if (enc == null || enc.isNull() || enc.type() != AVMEDIA_TYPE_VIDEO) {
                throw new IllegalArgumentException("unknown video codec '" + codecName + "'");
            }
            codec = avcodec_alloc_context3(enc);
            codec.width(video.width()).height(video.height()).pix_fmt(pixelFormat(enc));
            codec.time_base().num(1).den(video.frameRate());
            codec.framerate().num(video.frameRate()).den(1);
            codec.thread_count(threads);
            if (globalHeader) codec.flags(codec.flags() | AV_CODEC_FLAG_GLOBAL_HEADER);
            Codecs.open(codec, enc, options, codecName);
            timeBase = codec.time_base(); // read for every packet: one wrapper, not one each
            if (codec.pix_fmt() != AV_PIX_FMT_YUV420P) {
                converted = av_frame_alloc();
                converted.width(video.width()).height(video.height()).format(codec.pix_fmt());
                Av.check(av_frame_get_buffer(converted, 0), "cannot allocate a picture");
            }
            packet = av_packet_alloc();
            ok = true;
        } finally {
            if (!ok) close();
        }
    }

    private static int pixelFormat(AVCodec enc) {
        IntPointer fmts = enc.pix_fmts();
        if (fmts == null || fmts.isNull()) return AV_PIX_FMT_YUV420P;
        for (int i = 0; fmts.get(i) != AV_PIX_FMT_NONE; i++) {
            if (fmts.get(i) == AV_PIX_FMT_YUV420P) return AV_PIX_FMT_YUV420P;
        }
        return fmts.get(0);
    }

    AVCodecContext context() {
        return codec;
    }

    /**
     * Forces a keyframe at every multiple of {@code samples} of stream time, so segments can be cut
     * there.
     */
    void keyframes(long samples) {
        keyEvery = samples;
        nextKey = 0;
    }

    /**
     * Encodes the video frames due in samples [from, to) of {@code in}, the stream's next samples.
     */
    void encode(Frame in, int from, int to, AudioEncoder.PacketSink sink) throws IOException {
        long base = samples - from; // stream position of the frame's sample 0
        int img = 0;
        while (img < in.imageCount() && in.imagePosition(img) < from) img++;
        while (true) {
            long due = video.framePosition(next, audio) - base;
            if (due >= to) break;
            int chosen = -1;
            while (img < in.imageCount() && in.imagePosition(img) <= due) chosen = img++;
            if (chosen >= 0) show(in.image(chosen));
            send(sink);
        }
        int last = -1;
        while (img < in.imageCount() && in.imagePosition(img) < to) last = img++;
        if (last >= 0) show(in.image(last)); // from the next video frame on
        samples += to - from;
    }

    private void show(Image image) throws IOException {
        if (!current.writable()) {
            // The codec still holds the last picture sent: give it that one and paint a new one.
            ImageFrame fresh = new ImageFrame(video);
            current.close();
            current = fresh;
        }
        current.image.copyFrom(image);
    }

    private void send(AudioEncoder.PacketSink sink) throws IOException {
        AVFrame f = current.frame;
        if (converted != null) {
            Av.check(av_frame_make_writable(converted), "picture not writable");
            scaler.scale(current.frame, converted);
            f = converted;
        }
        boolean key = false;
        if (keyEvery > 0) {
            long at = video.framePosition(next, audio);
            if (at >= nextKey) {
                key = true;
                while (nextKey <= at) nextKey += keyEvery;
            }
        }
        f.pts(next++);
        f.pict_type(key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE);
        Av.check(avcodec_send_frame(codec, f), "video encoding failed");
        receive(sink);
    }

    private void receive(AudioEncoder.PacketSink sink) throws IOException {
        Codecs.drain(codec, timeBase, packet, sink);
    }

    /** Drains the codec. */
    void finish(AudioEncoder.PacketSink sink) throws IOException {
        if (next == 0) return;
        avcodec_send_frame(codec, null);
        receive(sink);
    }

    @Override
    public void close() {
        if (packet != null) av_packet_free(packet);
        if (converted != null) av_frame_free(converted);
        if (codec != null) avcodec_free_context(codec);
        current.close();
        scaler.close();
        packet = null;
        converted = null;
        codec = null;
    }
}
