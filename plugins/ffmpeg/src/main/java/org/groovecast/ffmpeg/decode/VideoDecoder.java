package org.groovecast.ffmpeg.decode;

import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_decoder;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_flush_buffers;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_open2;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_to_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_receive_frame;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_packet;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EAGAIN;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_unref;

import java.io.IOException;
import java.util.ArrayDeque;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.shared.Av;
import org.groovecast.ffmpeg.shared.ImageFrame;
import org.groovecast.ffmpeg.shared.Scaler;

/**
 * The video stream of an open file: decoded, scaled to the clock's {@link VideoFormat} into a small
 * pool of images, each stamped with the track position (in samples) where it shows. The demuxer
 * feeds it packets; {@link #emit} attaches the pictures due in a stretch of the track.
 */
final class VideoDecoder implements AutoCloseable {
    /** Decoded pictures waiting for their time; past this, the oldest waiting one is dropped. */
    private static final int MAX_WAITING = 16;

    /** Samples within which a track's first picture is moved to the track's start. */
    private final long leadIn;

    private final VideoFormat target;
    private final AudioFormat audio;
    private final int tbNum;
    private final int tbDen;

    /**
     * Stream time of track position 0, in samples: set from the first audio frame, which is what
     * plays at 0.
     */
    private long origin;

    private AVCodecContext codec;
    private AVFrame decoded;
    private final Scaler scaler;
    private final ArrayDeque<ImageFrame> waiting = new ArrayDeque<>();
    private final ArrayDeque<ImageFrame> shown = new ArrayDeque<>();
    private final ArrayDeque<ImageFrame> free = new ArrayDeque<>();
    private long latest = Long.MIN_VALUE;
    private boolean started;
    private boolean ended;

    VideoDecoder(
            AVStream stream,
            long formatStartMicros,
            VideoFormat target,
            AudioFormat audio,
            int scalingThreads)
            throws IOException {
        this.target = target;
        this.audio = audio;
        this.tbNum = stream.time_base().num();
        this.tbDen = stream.time_base().den();
        this.origin =
                formatStartMicros == AV_NOPTS_VALUE
                        ? 0
                        : formatStartMicros * audio.sampleRate() / 1_000_000L;
        this.scaler = new Scaler(scalingThreads);
        this.leadIn = audio.sampleRate() / 2L;
        boolean ok = false;
        try {
            AVCodec decoder = avcodec_find_decoder(stream.codecpar().codec_id());
            if (decoder == null || decoder.isNull())
                throw new IOException("no decoder for its video codec");
            codec = avcodec_alloc_context3(decoder);
            Av.check(
                    avcodec_parameters_to_context(codec, stream.codecpar()),
                    "bad video codec parameters");
            codec.pkt_timebase(stream.time_base());
            codec.thread_count(0);
            Av.check(
                    avcodec_open2(codec, decoder, (AVDictionary) null),
                    "cannot open the video decoder");
            decoded = av_frame_alloc();
            ok = true;
        } finally {
            if (!ok) close();
        }
    }

    /**
     * Lines pictures up with the audio: the audio frame decoded at track position {@code position}
     * carries {@code pts} in {@code num/den} seconds. Encoders delay audio by their priming, which
     * decoders cut, so the containers' start times are not enough.
     */
    void alignAudio(long pts, int num, int den, long position) {
        long shift = pts * audio.sampleRate() * num / den - position - origin;
        origin += shift;
        latest -= shift;
        for (ImageFrame f : waiting) f.position -= shift;
    }

    /**
     * Track position (samples) of the newest decoded picture; the demuxer reads ahead until it
     * passes the audio.
     */
    long latest() {
        return latest;
    }

    /** True once the stream is over (or broken): the last picture stays on screen. */
    boolean ended() {
        return ended;
    }

    /** Decodes one packet of this stream; a damaged packet is skipped, as players do. */
    void decode(AVPacket packet) throws IOException {
        if (ended) return;
        avcodec_send_packet(codec, packet);
        receive();
    }

    /** The file is over: takes out what the decoder still holds. */
    void drain() throws IOException {
        if (ended) return;
        avcodec_send_packet(codec, null);
        receive();
        ended = true;
    }

    private void receive() throws IOException {
        while (true) {
            int r = avcodec_receive_frame(codec, decoded);
            if (r == AVERROR_EAGAIN() || r == AVERROR_EOF) return;
            if (r < 0) {
                ended = true; // the audio goes on; the picture freezes on the last good image
                return;
            }
            try {
                long pts = decoded.best_effort_timestamp();
                long at =
                        pts == AV_NOPTS_VALUE
                                ? Math.max(0, latest)
                                : pts * audio.sampleRate() * tbNum / tbDen - origin;
                ImageFrame slot = acquire();
                scaler.scale(decoded, slot.frame);
                slot.position = at;
                waiting.addLast(slot);
                latest = Math.max(latest, at);
            } finally {
                av_frame_unref(decoded);
            }
        }
    }

    private ImageFrame acquire() throws IOException {
        ImageFrame f = free.pollFirst();
        if (f != null) return f;
        if (waiting.size() >= MAX_WAITING) return waiting.pollFirst();
        return new ImageFrame(target);
    }

    /**
     * Attaches to {@code frame} the pictures due in the {@code samples} samples written at its
     * position {@code at}, which is track position {@code from}. Late pictures show at once; when
     * the track is over ({@code samples == 0}) what is left shows at {@code at}.
     */
    void emit(Frame frame, int at, long from, int samples, long tick) {
        while (!shown.isEmpty() && shown.peekFirst().shownAt != tick)
            free.addLast(shown.pollFirst());
        long until = samples == 0 ? Long.MAX_VALUE : from + samples;
        int last = Math.max(0, samples - 1);
        while (!waiting.isEmpty()) {
            ImageFrame f = waiting.peekFirst();
            // A track's first picture shows from its start, rather than black for the few
            // milliseconds most files start their video after their audio.
            long position = !started && f.position < leadIn ? from : f.position;
            if (position >= until) break;
            waiting.pollFirst();
            started = true;
            int offset = (int) Math.min(last, Math.max(0, position - from));
            // Of several pictures due at the same sample only the last would show: skip the others.
            ImageFrame next = waiting.peekFirst();
            if (next != null
                    && next.position < until
                    && Math.min(last, Math.max(0, next.position - from)) == offset) {
                free.addLast(f);
                continue;
            }
            frame.addImage(at + offset, f.image);
            f.shownAt = tick;
            shown.addLast(f);
        }
    }

    /** After a seek: pictures from before it are stale. */
    void flush() {
        avcodec_flush_buffers(codec);
        free.addAll(waiting);
        waiting.clear();
        latest = Long.MIN_VALUE;
    }

    @Override
    public void close() {
        for (ArrayDeque<ImageFrame> q : java.util.List.of(waiting, shown, free)) {
            for (ImageFrame f : q) f.close();
            q.clear();
        }
        if (decoded != null) av_frame_free(decoded);
        if (codec != null) avcodec_free_context(codec);
        scaler.close();
        decoded = null;
        codec = null;
    }
}
