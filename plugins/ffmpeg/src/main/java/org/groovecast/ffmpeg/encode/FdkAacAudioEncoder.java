package org.groovecast.ffmpeg.encode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_AAC;
import static org.bytedeco.ffmpeg.global.avcodec.AV_INPUT_BUFFER_PADDING_SIZE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_AUDIO;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_S16;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_mallocz;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.javacpp.BytePointer;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;

/**
 * AAC (LC, HE-AAC, HE-AACv2, LD, ELD) through the system's libfdk-aac ({@link FdkAac}). FDK writes
 * raw access units and gives their AudioSpecificConfig as extradata, from which FFmpeg's ADTS muxer
 * writes each frame's ADTS header for Icecast (and MPEG-TS and MP4 theirs): implicit SBR signaling
 * without a global header, so an AAC-LC-only player still plays the core. The clock's floats are
 * converted into one reused interleaved 16-bit buffer (FDK's INT_PCM) and each access unit lands in
 * one reused output buffer: nothing is allocated per tick.
 *
 * <p>Skipped by the usual test runs, which lack the library; see {@link FdkAac}.
 */
final class FdkAacAudioEncoder implements AudioEncoder {
    static final String CODEC = "libfdk_aac";

    /** AACENC_BufDesc: numBufs, then pointers to bufs, bufferIdentifiers, bufSizes, bufElSizes. */
    private static final long DESC_BUFS = 8;

    private static final long DESC_IDS = 16;
    private static final long DESC_SIZES = 24;
    private static final long DESC_EL_SIZES = 32;
    private static final long DESC_SIZE = 40;

    private final FdkAac fdk;
    private final int channels;
    private final int inChannels;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment handleRef;
    private final MemorySegment inDesc;
    private final MemorySegment outDesc;
    private final MemorySegment inFields; // bufs[1], ids[1], sizes[1], elSizes[1]
    private final MemorySegment outFields;
    private final MemorySegment inArgs; // numInSamples, numAncBytes
    private final MemorySegment outArgs; // numOutBytes, numInSamples, numAncBytes, bitResState
    private final MemorySegment out;
    private final BytePointer outView;
    private final int frameLength;
    private final int delay;
    private MemorySegment pcm;
    private long handle;
    private AVCodecContext codec;
    private AVRational timeBase;
    private AVPacket packet;
    private long pts;
    private int lastBytes;

    FdkAacAudioEncoder(FdkAac fdk, FdkAacSettings s, AudioFormat input, boolean globalHeader)
            throws IOException {
        this.fdk = fdk;
        this.channels = s.channels();
        this.inChannels = input.channels();
        if (channels != inChannels && !(channels <= 2 && inChannels <= 2))
            throw new IllegalArgumentException(
                    "libfdk_aac: "
                            + channels
                            + " channels from the station's "
                            + inChannels
                            + ": only mono and stereo are converted here");
        handleRef = arena.allocate(JAVA_LONG);
        inDesc = arena.allocate(DESC_SIZE);
        outDesc = arena.allocate(DESC_SIZE);
        inFields = arena.allocate(32);
        outFields = arena.allocate(32);
        inArgs = arena.allocate(16);
        outArgs = arena.allocate(32);
        MemorySegment info = arena.allocate(FdkAac.INFO_SIZE);
        boolean ok = false;
        try {
            check((int) fdk.open.invokeExact(handleRef.address(), 0, channels), "open");
            handle = handleRef.get(JAVA_LONG, 0);
            set(FdkAac.AOT, s.aot(), "profile");
            set(FdkAac.SAMPLERATE, s.sampleRate(), "sample rate");
            set(FdkAac.CHANNELMODE, s.channelMode(), "channels");
            set(FdkAac.CHANNELORDER, 1, "channel order"); // WAV's, the station's
            if (s.vbr() > 0) set(FdkAac.BITRATEMODE, s.vbr(), "vbr");
            else set(FdkAac.BITRATE, s.bitrate(), "bit rate");
            set(FdkAac.TRANSMUX, FdkAac.TT_MP4_RAW, "transport");
            int signaling = s.signaling() >= 0 ? s.signaling() : globalHeader ? 2 : 0;
            set(FdkAac.SIGNALING_MODE, signaling, "signaling");
            set(FdkAac.AFTERBURNER, s.afterburner() ? 1 : 0, "afterburner");
            if (s.bandwidth() > 0) set(FdkAac.BANDWIDTH, s.bandwidth(), "cutoff");
            // Applies the parameters: an encode call with no buffers.
            check((int) fdk.encode.invokeExact(handle, 0L, 0L, 0L, 0L), "take its settings");
            check((int) fdk.info.invokeExact(handle, info.address()), "describe its stream");
            frameLength = info.get(JAVA_INT, FdkAac.INFO_FRAME_LENGTH);
            delay = info.get(JAVA_INT, FdkAac.INFO_DELAY);
            int confSize = Math.min(64, info.get(JAVA_INT, FdkAac.INFO_CONF_SIZE));
            byte[] asc = info.asSlice(FdkAac.INFO_CONF, confSize).toArray(JAVA_BYTE);
            int maxOut = Math.max(info.get(JAVA_INT, FdkAac.INFO_MAX_OUT), 6144 / 8 * channels);
            out = arena.allocate(maxOut + AV_INPUT_BUFFER_PADDING_SIZE);
            outView = new BytePointer(out.asByteBuffer());
            ensureCapacity(4096);
            describe(outDesc, outFields, out.address(), FdkAac.OUT_BITSTREAM_DATA, maxOut, 1);
            codec = descriptor(s, asc);
            timeBase = codec.time_base();
            packet = av_packet_alloc();
            pts = -delay;
            ok = true;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("libfdk_aac: " + e, e);
        } finally {
            if (!ok) close();
        }
    }

    private void set(int param, int value, String what) throws Throwable {
        int r = (int) fdk.setParam.invokeExact(handle, param, value);
        if (r != FdkAac.OK)
            throw new IllegalArgumentException(
                    "libfdk_aac refused "
                            + what
                            + " "
                            + value
                            + " (error 0x"
                            + Integer.toHexString(r)
                            + ")");
    }

    private static void check(int r, String what) throws IOException {
        if (r != FdkAac.OK)
            throw new IOException(
                    "libfdk_aac could not " + what + " (error 0x" + Integer.toHexString(r) + ")");
    }

    /** One-buffer AACENC_BufDesc {@code desc} whose arrays live in {@code fields}. */
    private static void describe(
            MemorySegment desc, MemorySegment fields, long buffer, int id, int size, int elSize) {
        fields.set(JAVA_LONG, 0, buffer);
        fields.set(JAVA_INT, 8, id);
        fields.set(JAVA_INT, 12, size);
        fields.set(JAVA_INT, 16, elSize);
        desc.set(JAVA_INT, 0, 1);
        desc.set(JAVA_LONG, DESC_BUFS, fields.address());
        desc.set(JAVA_LONG, DESC_IDS, fields.address() + 8);
        desc.set(JAVA_LONG, DESC_SIZES, fields.address() + 12);
        desc.set(JAVA_LONG, DESC_EL_SIZES, fields.address() + 16);
    }

    /** What the muxer reads of the stream: an unopened context with the AudioSpecificConfig. */
    private AVCodecContext descriptor(FdkAacSettings s, byte[] asc) {
        AVCodecContext c = avcodec_alloc_context3((AVCodec) null);
        c.codec_type(AVMEDIA_TYPE_AUDIO).codec_id(AV_CODEC_ID_AAC).sample_fmt(AV_SAMPLE_FMT_S16);
        c.profile(s.ffmpegProfile());
        c.sample_rate(s.sampleRate());
        av_channel_layout_default(c.ch_layout(), channels);
        c.bit_rate(s.vbr() > 0 ? 0 : s.bitrate());
        c.frame_size(frameLength);
        c.initial_padding(delay);
        c.time_base().num(1).den(s.sampleRate());
        BytePointer extra = new BytePointer(av_mallocz(asc.length + AV_INPUT_BUFFER_PADDING_SIZE));
        extra.put(asc);
        c.extradata(extra).extradata_size(asc.length);
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
        if (channels == inChannels) {
            for (int c = 0; c < channels; c++) {
                float[] src = in.channel(c);
                for (int i = 0; i < n; i++)
                    pcm.setAtIndex(JAVA_SHORT, (long) i * channels + c, s16(src[from + i]));
            }
        } else if (channels == 2) {
            float[] src = in.channel(0);
            for (int i = 0; i < n; i++) {
                short v = s16(src[from + i]);
                pcm.setAtIndex(JAVA_SHORT, 2L * i, v);
                pcm.setAtIndex(JAVA_SHORT, 2L * i + 1, v);
            }
        } else {
            float[] l = in.channel(0);
            float[] r = in.channel(1);
            for (int i = 0; i < n; i++)
                pcm.setAtIndex(JAVA_SHORT, i, s16((l[from + i] + r[from + i]) * 0.5f));
        }
        int remaining = n * channels;
        long at = pcm.address();
        while (remaining > 0) {
            int consumed = call(at, remaining, sink);
            if (consumed <= 0 && lastBytes == 0) break; // nothing taken, nothing made
            consumed = Math.max(consumed, 0);
            remaining -= consumed;
            at += 2L * consumed;
        }
    }

    private static short s16(float v) {
        return (short) Math.round(Math.clamp(v, -1f, 1f) * 32767f);
    }

    /**
     * One aacEncEncode of {@code samples} (all channels) at {@code at}, -1 to flush; the access
     * unit it makes, if any, goes to {@code sink}. Returns the samples FDK took.
     */
    private int call(long at, int samples, PacketSink sink) throws IOException {
        describe(inDesc, inFields, at, FdkAac.IN_AUDIO_DATA, Math.max(0, samples) * 2, 2);
        inArgs.set(JAVA_INT, 0, samples);
        inArgs.set(JAVA_INT, 4, 0);
        outArgs.fill((byte) 0);
        int r;
        try {
            r =
                    (int)
                            fdk.encode.invokeExact(
                                    handle,
                                    inDesc.address(),
                                    outDesc.address(),
                                    inArgs.address(),
                                    outArgs.address());
        } catch (Throwable e) {
            throw new IOException("libfdk_aac: " + e, e);
        }
        if (r == FdkAac.ENCODE_EOF) return -1;
        check(r, "encode");
        lastBytes = outArgs.get(JAVA_INT, 0);
        if (lastBytes > 0) emit(lastBytes, sink);
        return outArgs.get(JAVA_INT, 4);
    }

    private void emit(int bytes, PacketSink sink) throws IOException {
        packet.data(outView.position(0)).size(bytes);
        packet.pts(pts).dts(pts).duration(frameLength).flags(AV_PKT_FLAG_KEY).stream_index(0);
        pts += frameLength;
        try {
            sink.accept(packet, timeBase);
        } finally {
            av_packet_unref(packet); // the packet owns no buffer: this only clears its fields
        }
    }

    @Override
    public void finish(PacketSink sink) throws IOException {
        if (handle == 0) return;
        // Flushing: -1 samples until FDK says the end is reached (bounded, should it never say).
        for (int i = 0; i < 64 && call(pcm.address(), -1, sink) >= 0; i++) {
            if (lastBytes == 0 && i > 8) break;
        }
    }

    private void ensureCapacity(int samples) {
        long need = 2L * samples * channels;
        if (pcm == null || pcm.byteSize() < need)
            pcm = arena.allocate(Math.max(need, 2L * 4096 * channels));
    }

    @Override
    public void close() {
        if (handle != 0) {
            try {
                int ignored = (int) fdk.close.invokeExact(handleRef.address());
            } catch (Throwable e) {
                // nothing to do: the encoder is gone either way
            }
            handle = 0;
        }
        if (packet != null) av_packet_free(packet);
        if (codec != null) avcodec_free_context(codec);
        packet = null;
        codec = null;
        if (outView != null) outView.close();
        if (arena.scope().isAlive()) arena.close();
    }
}
