package org.groovecast.ffmpeg.encode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_MP3;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_DATA_SKIP_SAMPLES;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_new_side_data;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_encoder_by_name;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_AUDIO;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLTP;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.javacpp.BytePointer;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.ffmpeg.shared.Av;

/**
 * MP3 through the system's LAME ({@link Lame}), set up as FFmpeg's libmp3lame wrapper sets it up
 * (CBR at {@code b}, joint stereo, bit reservoir on, no Xing frame, LAME's default quality unless
 * {@code compression_level}), so an {@code mp3()} stream sounds and muxes the same either way. The
 * clock's floats are copied into native buffers, LAME encodes into the pending bytes in place, and
 * each whole frame goes to the sink as a packet that points into them: nothing is allocated per
 * tick.
 */
final class LameAudioEncoder implements AudioEncoder {
    static final String CODEC = "libmp3lame";

    /**
     * The longest Layer III frame (MPEG-1 320 kbit/s at 32 kHz, or MPEG-2.5 160 kbit/s at 8 kHz),
     * padded.
     */
    private static final int MAX_FRAME = 1441;

    /**
     * The script options this path takes; anything else goes to FFmpeg's wrapper, which knows them
     * all.
     */
    record Settings(
            int bitrateKbps, int quality, boolean jointStereo, boolean reservoir, int outRate) {
        static Settings of(Map<String, String> options, AudioFormat input) {
            if (input.channels() < 1 || input.channels() > 2) return null;
            int kbps = 0; // LAME's own default, as FFmpeg's wrapper leaves it: 128 kbit/s
            int quality = -1;
            int joint = 1;
            int reservoir = 1;
            for (Map.Entry<String, String> o : options.entrySet()) {
                String v = o.getValue().trim();
                switch (o.getKey()) {
                    case "b" -> kbps = BitRateOption.kbps(v);
                    case "compression_level" -> quality = integer(v, 0, 9);
                    case "joint_stereo" -> joint = integer(v, 0, 1);
                    case "reservoir" -> reservoir = integer(v, 0, 1);
                    default -> {
                        return null;
                    }
                }
                // A value FFmpeg's wrapper would judge (or refuse with its own message) goes there.
                if (kbps < 0 || quality < -1 || joint < 0 || reservoir < 0) return null;
            }
            return new Settings(
                    kbps, quality, joint == 1, reservoir == 1, outRate(input.sampleRate()));
        }

        private static int integer(String v, int min, int max) {
            try {
                int i = Integer.parseInt(v);
                return i < min || i > max ? -2 : i; // -2: below every valid value, -1 included
            } catch (NumberFormatException e) {
                return -2;
            }
        }

        /**
         * The rate FFmpeg's wrapper would encode at: the stream's if MP3 has it, else the closest
         * MP3 rate.
         */
        private static int outRate(int wanted) {
            Av.init();
            AVCodec lame = avcodec_find_encoder_by_name(CODEC);
            return lame == null || lame.isNull()
                    ? wanted
                    : FfmpegAudioEncoder.sampleRate(lame, wanted);
        }
    }

    private final Lame lame;
    private final int channels;
    private final Arena arena = Arena.ofShared();
    private long gfp;
    private AVCodecContext codec;
    private AVRational timeBase;
    private AVPacket packet;
    private MemorySegment left;
    private MemorySegment right;
    private MemorySegment pending;
    private BytePointer pendingView;
    private int pendingLength;
    private final int initialPadding;
    private final int inRate;
    private final int outRate;
    private long pts;
    private long samplesIn;
    private long samplesOut;
    private boolean delaySent;

    LameAudioEncoder(Lame lame, Settings settings, AudioFormat input) throws IOException {
        this.lame = lame;
        this.channels = input.channels();
        this.inRate = input.sampleRate();
        this.outRate = settings.outRate();
        boolean ok = false;
        try {
            gfp = (long) lame.init.invokeExact();
            if (gfp == 0) throw new IOException("LAME could not start an encoder");
            set(lame.setChannels, channels, "channels");
            set(
                    lame.setMode,
                    channels == 1
                            ? Lame.MONO
                            : settings.jointStereo() ? Lame.JOINT_STEREO : Lame.STEREO,
                    "mode");
            set(lame.setInRate, input.sampleRate(), "sample rate");
            set(lame.setOutRate, settings.outRate(), "sample rate");
            if (settings.quality() >= 0) set(lame.setQuality, settings.quality(), "quality");
            if (settings.bitrateKbps() > 0) set(lame.setBitrate, settings.bitrateKbps(), "bitrate");
            set(lame.setWriteVbrTag, 0, "VBR tag");
            set(lame.setDisableReservoir, settings.reservoir() ? 0 : 1, "bit reservoir");
            if ((int) lame.initParams.invokeExact(gfp) < 0) {
                throw new IOException(
                        "LAME refused its settings ("
                                + settings
                                + ", "
                                + input.sampleRate()
                                + " Hz, "
                                + channels
                                + " channels)");
            }
            // As FFmpeg's wrapper counts it: LAME's delay, the MDCT's 528 samples and one.
            initialPadding = (int) lame.encoderDelay.invokeExact(gfp) + 528 + 1;
            pts = -initialPadding;
            codec = descriptor(settings, input);
            timeBase = codec.time_base();
            packet = av_packet_alloc();
            ensureCapacity(4096);
            ok = true;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("LAME: " + e, e);
        } finally {
            if (!ok) close();
        }
    }

    private void set(MethodHandle setter, int value, String what) throws Throwable {
        if ((int) setter.invokeExact(gfp, value) != 0)
            throw new IOException("LAME refused " + what + " " + value);
    }

    /** What the muxer reads of the stream: an unopened context that only describes it. */
    private AVCodecContext descriptor(Settings settings, AudioFormat input) {
        AVCodecContext c = avcodec_alloc_context3((AVCodec) null);
        c.codec_type(AVMEDIA_TYPE_AUDIO).codec_id(AV_CODEC_ID_MP3).sample_fmt(AV_SAMPLE_FMT_FLTP);
        c.sample_rate(settings.outRate());
        av_channel_layout_default(c.ch_layout(), input.channels());
        c.bit_rate((settings.bitrateKbps() > 0 ? settings.bitrateKbps() : 128) * 1000L);
        c.frame_size(Mp3Frames.samplesAt(settings.outRate()));
        c.initial_padding(initialPadding);
        c.time_base().num(1).den(settings.outRate());
        return c;
    }

    @Override
    public AVCodecContext context() {
        return codec;
    }

    @Override
    public void encode(Frame in, int from, int to, PacketSink sink) throws IOException {
        int n = to - from;
        if (n <= 0) return;
        ensureCapacity(n);
        MemorySegment.copy(in.channel(0), from, left, JAVA_FLOAT, 0, n);
        if (channels == 2) MemorySegment.copy(in.channel(1), from, right, JAVA_FLOAT, 0, n);
        int room = (int) pending.byteSize() - pendingLength;
        int got;
        try {
            got =
                    (int)
                            lame.encodeFloat.invokeExact(
                                    gfp,
                                    left.address(),
                                    channels == 2 ? right.address() : left.address(),
                                    n,
                                    pending.address() + pendingLength,
                                    room);
        } catch (Throwable e) {
            throw new IOException("LAME: " + e, e);
        }
        if (got < 0)
            throw new IOException("LAME failed to encode " + n + " samples (error " + got + ")");
        pendingLength += got;
        samplesIn += n;
        emitFrames(sink, false);
    }

    @Override
    public void finish(PacketSink sink) throws IOException {
        if (gfp == 0) return;
        int got;
        try {
            got =
                    (int)
                            lame.flush.invokeExact(
                                    gfp,
                                    pending.address() + pendingLength,
                                    (int) pending.byteSize() - pendingLength);
        } catch (Throwable e) {
            throw new IOException("LAME: " + e, e);
        }
        if (got > 0) pendingLength += got;
        emitFrames(sink, true);
        pendingLength = 0;
    }

    /**
     * Hands out every whole frame of the pending bytes and keeps the partial one at the front. As
     * FFmpeg's wrapper does, the first packet says how many samples of delay to skip and, at the
     * end, each packet's duration stops at the last real sample and says what to discard, so that
     * the muxer writes them in the LAME header and a decoded file is exactly as long as its input.
     */
    private void emitFrames(PacketSink sink, boolean flushing) throws IOException {
        int at = 0;
        while (pendingLength - at >= 4) {
            int b1 = pending.get(JAVA_BYTE, at + 1);
            int length =
                    Mp3Frames.length(
                            pending.get(JAVA_BYTE, at), b1, pending.get(JAVA_BYTE, at + 2));
            if (length < 0) { // never from LAME; resynchronise rather than hand out garbage
                at++;
                continue;
            }
            if (pendingLength - at < length) break;
            int samples = Mp3Frames.samples(b1);
            int duration = samples;
            if (flushing)
                duration = (int) Math.clamp(samplesIn * outRate / inRate - samplesOut, 0, samples);
            packet.data(pendingView.position(at)).size(length);
            packet.pts(pts).dts(pts).duration(duration).flags(AV_PKT_FLAG_KEY).stream_index(0);
            if (!delaySent || duration < samples)
                skipSamples(delaySent ? 0 : initialPadding, samples - duration);
            pts += samples;
            samplesOut += duration;
            try {
                sink.accept(packet, timeBase);
            } finally {
                av_packet_unref(packet); // the packet owns no buffer: this only clears its fields
            }
            at += length;
        }
        if (at > 0) {
            MemorySegment.copy(pending, at, pending, 0, pendingLength - at);
            pendingLength -= at;
        }
    }

    /**
     * FFmpeg's skip-samples side data: 32-bit little-endian counts to skip at the start and at the
     * end.
     */
    private void skipSamples(int start, int end) throws IOException {
        BytePointer side = av_packet_new_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, 10);
        if (side == null || side.isNull())
            throw new IOException("cannot allocate packet side data");
        for (int i = 0; i < 4; i++) {
            side.put(i, (byte) (start >>> (8 * i)));
            side.put(4 + i, (byte) (end >>> (8 * i)));
        }
        side.put(8, (byte) 0).put(9, (byte) 0);
        delaySent = true;
    }

    /**
     * Input buffers for {@code samples} and room for what LAME may write for them (1.25 n + 7200,
     * its own bound).
     */
    private void ensureCapacity(int samples) {
        long out = MAX_FRAME + samples * 5L / 4 + 7200;
        if (left == null || left.byteSize() < samples * 4L) {
            int cap = Math.max(samples, 4096);
            left = arena.allocate(JAVA_FLOAT, cap);
            right = channels == 2 ? arena.allocate(JAVA_FLOAT, cap) : null;
        }
        if (pending == null || pending.byteSize() < out) {
            MemorySegment bigger = arena.allocate(Math.max(out, 16_384));
            if (pending != null) MemorySegment.copy(pending, 0, bigger, 0, pendingLength);
            if (pendingView != null) pendingView.close();
            pending = bigger;
            pendingView = new BytePointer(pending.asByteBuffer());
        }
    }

    @Override
    public void close() {
        if (gfp != 0) {
            try {
                int ignored = (int) lame.close.invokeExact(gfp);
            } catch (Throwable e) {
                // nothing to do: the encoder is gone either way
            }
            gfp = 0;
        }
        if (packet != null) av_packet_free(packet);
        if (codec != null) avcodec_free_context(codec);
        packet = null;
        codec = null;
        if (pendingView != null) pendingView.close();
        pendingView = null;
        if (arena.scope().isAlive()) arena.close();
    }
}
