package org.groovecast.ffmpeg.encode;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_CAP_SMALL_LAST_FRAME;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_CAP_VARIABLE_FRAME_SIZE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_FLAG_GLOBAL_HEADER;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_encoder_by_name;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_frame;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLTP;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_NONE;
import static org.bytedeco.ffmpeg.global.avutil.av_audio_fifo_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_audio_fifo_free;
import static org.bytedeco.ffmpeg.global.avutil.av_audio_fifo_read;
import static org.bytedeco.ffmpeg.global.avutil.av_audio_fifo_size;
import static org.bytedeco.ffmpeg.global.avutil.av_audio_fifo_write;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_copy;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_uninit;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_make_writable;
import static org.bytedeco.ffmpeg.global.avutil.av_freep;
import static org.bytedeco.ffmpeg.global.avutil.av_samples_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_samples_set_silence;
import static org.bytedeco.ffmpeg.global.swresample.swr_alloc_set_opts2;
import static org.bytedeco.ffmpeg.global.swresample.swr_convert;
import static org.bytedeco.ffmpeg.global.swresample.swr_free;
import static org.bytedeco.ffmpeg.global.swresample.swr_init;

import java.io.IOException;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVAudioFifo;
import org.bytedeco.ffmpeg.avutil.AVChannelLayout;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.swresample.SwrContext;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.ffmpeg.shared.Av;

/**
 * One FFmpeg audio encoder fed with the clock's planar float frames: converts them to the codec's
 * sample format and rate, cuts them into the codec's frame size, and hands out packets. Codecs open
 * with {@code thread_count = 0} (FFmpeg decides) unless the script set threads. Natives are freed
 * by {@link #close()}.
 */
final class FfmpegAudioEncoder implements AudioEncoder {
    private final AudioFormat input;

    /** The encoded stream's channels (the script's {@code ac}, else the station's). */
    private final int channels;

    private AVCodecContext codec;
    private SwrContext swr;
    private AVAudioFifo fifo;
    private AVFrame frame;
    private AVPacket packet;

    /**
     * Taken once when the codec and frame are made: each JavaCPP accessor call makes a new wrapper,
     * and these are read for every packet. Both point into the native structs, which outlive them.
     */
    private AVRational timeBase;

    private PointerPointer<?> frameData;
    private final FloatPointer[] inPlanes;
    private final PointerPointer<FloatPointer> inPointers;
    private final int frameSize;
    private final boolean shortLastFrame;
    private long pts;
    private PointerPointer<?> converted;
    private int convertedCapacity;

    FfmpegAudioEncoder(
            String codecName,
            StreamShape shape,
            int threads,
            AudioFormat input,
            boolean globalHeader)
            throws IOException {
        Av.init();
        this.input = input;
        this.channels = shape.channels();
        this.inPlanes = new FloatPointer[input.channels()];
        this.inPointers = new PointerPointer<>(input.channels());
        boolean ok = false;
        try {
            AVCodec enc = avcodec_find_encoder_by_name(codecName);
            if (enc == null || enc.isNull())
                throw new IllegalArgumentException("unknown audio codec '" + codecName + "'");
            codec = avcodec_alloc_context3(enc);
            codec.sample_fmt(sampleFormat(enc));
            codec.sample_rate(sampleRate(enc, shape.sampleRate()));
            av_channel_layout_default(codec.ch_layout(), channels);
            codec.time_base().num(1).den(codec.sample_rate());
            codec.thread_count(threads);
            if (globalHeader) codec.flags(codec.flags() | AV_CODEC_FLAG_GLOBAL_HEADER);
            Codecs.open(codec, enc, shape.codecOptions(), codecName);
            boolean variable = (enc.capabilities() & AV_CODEC_CAP_VARIABLE_FRAME_SIZE) != 0;
            frameSize = codec.frame_size() > 0 && !variable ? codec.frame_size() : 1024;
            shortLastFrame = variable || (enc.capabilities() & AV_CODEC_CAP_SMALL_LAST_FRAME) != 0;
            SwrContext s = new SwrContext(null);
            AVChannelLayout inLayout = new AVChannelLayout();
            av_channel_layout_default(inLayout, input.channels());
            int set =
                    swr_alloc_set_opts2(
                            s,
                            codec.ch_layout(),
                            codec.sample_fmt(),
                            codec.sample_rate(),
                            inLayout,
                            AV_SAMPLE_FMT_FLTP,
                            input.sampleRate(),
                            0,
                            null);
            av_channel_layout_uninit(inLayout);
            inLayout.close();
            Av.check(set, "cannot set up resampling");
            swr = s;
            Av.check(swr_init(swr), "cannot start resampling");
            fifo = av_audio_fifo_alloc(codec.sample_fmt(), channels, frameSize * 4);
            frame = av_frame_alloc();
            frame.nb_samples(frameSize).format(codec.sample_fmt()).sample_rate(codec.sample_rate());
            av_channel_layout_copy(frame.ch_layout(), codec.ch_layout());
            Av.check(av_frame_get_buffer(frame, 0), "cannot allocate an audio frame");
            // frame->data holds up to 8 planes inside the struct, where extended_data points: a
            // buffer made writable again keeps that array, so the wrapper stays right.
            frameData = frame.extended_data();
            timeBase = codec.time_base();
            packet = av_packet_alloc();
            ok = true;
        } finally {
            if (!ok) close();
        }
    }

    private static int sampleFormat(AVCodec enc) {
        IntPointer fmts = enc.sample_fmts();
        if (fmts == null || fmts.isNull()) return AV_SAMPLE_FMT_FLTP;
        int first = fmts.get(0);
        for (int i = 0; fmts.get(i) != AV_SAMPLE_FMT_NONE; i++) {
            if (fmts.get(i) == AV_SAMPLE_FMT_FLTP) return AV_SAMPLE_FMT_FLTP;
        }
        return first;
    }

    /**
     * The stream's rate if the codec takes it, else the closest rate it takes (48 kHz for Opus).
     */
    static int sampleRate(AVCodec enc, int wanted) {
        IntPointer rates = enc.supported_samplerates();
        if (rates == null || rates.isNull()) return wanted;
        int best = rates.get(0);
        for (int i = 0; rates.get(i) != 0; i++) {
            int r = rates.get(i);
            if (r == wanted) return r;
            if (Math.abs(r - wanted) < Math.abs(best - wanted)) best = r;
        }
        return best;
    }

    @Override
    public AVCodecContext context() {
        return codec;
    }

    @Override
    public void encode(Frame in, int from, int to, PacketSink sink) throws IOException {
        int n = to - from;
        if (n <= 0) return;
        for (int c = 0; c < inPlanes.length; c++) {
            if (inPlanes[c] == null || inPlanes[c].capacity() < n) {
                if (inPlanes[c] != null) inPlanes[c].close();
                inPlanes[c] = new FloatPointer(Math.max(n, 4096));
                inPointers.put(c, inPlanes[c]);
            }
            inPlanes[c].put(in.channel(c), from, n);
        }
        convertInto(inPointers, n);
        drainFifo(sink, false);
    }

    private void convertInto(PointerPointer<?> in, int n) throws IOException {
        int capacity = (int) ((long) n * codec.sample_rate() / input.sampleRate()) + 256;
        if (converted == null || convertedCapacity < capacity) {
            freeConverted();
            converted = new PointerPointer<>(channels);
            IntPointer linesize = new IntPointer(1);
            Av.check(
                    av_samples_alloc(
                            converted, linesize, channels, capacity, codec.sample_fmt(), 0),
                    "cannot allocate conversion buffers");
            linesize.close();
            convertedCapacity = capacity;
        }
        int got =
                Av.check(swr_convert(swr, converted, capacity, in, n), "sample conversion failed");
        if (got > 0) av_audio_fifo_write(fifo, converted, got);
    }

    private void drainFifo(PacketSink sink, boolean last) throws IOException {
        while (av_audio_fifo_size(fifo) >= frameSize || last && av_audio_fifo_size(fifo) > 0) {
            Av.check(av_frame_make_writable(frame), "frame not writable");
            int n = Math.min(frameSize, av_audio_fifo_size(fifo));
            av_audio_fifo_read(fifo, frameData, n);
            if (n < frameSize && !shortLastFrame) {
                av_samples_set_silence(frameData, n, frameSize - n, channels, codec.sample_fmt());
                n = frameSize;
            }
            frame.nb_samples(n);
            frame.pts(pts);
            pts += n;
            Av.check(avcodec_send_frame(codec, frame), "encoding failed");
            frame.nb_samples(frameSize);
            receive(sink);
        }
    }

    private void receive(PacketSink sink) throws IOException {
        Codecs.drain(codec, timeBase, packet, sink);
    }

    /** Encodes what the resampler and the frame buffer still hold, then drains the codec. */
    @Override
    public void finish(PacketSink sink) throws IOException {
        convertInto(null, 0);
        drainFifo(sink, true);
        // Some encoders (FFmpeg's vorbis) never end a drain that no frame preceded.
        if (pts == 0) return;
        avcodec_send_frame(codec, null);
        receive(sink);
    }

    private void freeConverted() {
        if (converted != null) {
            av_freep(converted);
            converted.close();
            converted = null;
        }
        convertedCapacity = 0;
    }

    @Override
    public void close() {
        if (packet != null) av_packet_free(packet);
        if (frame != null) av_frame_free(frame);
        if (fifo != null) av_audio_fifo_free(fifo);
        if (swr != null) swr_free(swr);
        if (codec != null) avcodec_free_context(codec);
        freeConverted();
        for (FloatPointer p : inPlanes) {
            if (p != null) p.close();
        }
        inPointers.close();
        packet = null;
        frame = null;
        fifo = null;
        swr = null;
        codec = null;
    }
}
