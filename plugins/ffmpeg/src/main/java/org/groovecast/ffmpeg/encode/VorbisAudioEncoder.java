package org.groovecast.ffmpeg.encode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_VORBIS;
import static org.bytedeco.ffmpeg.global.avcodec.AV_INPUT_BUFFER_PADDING_SIZE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_AUDIO;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLTP;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_mallocz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Set;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.javacpp.BytePointer;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;

/**
 * Vorbis through the system's libvorbisenc ({@link Vorbisenc}). The three header packets become the
 * codec's extradata (Xiph lacing, as FFmpeg's Ogg and MP4 muxers read it), each audio packet goes
 * to the sink with the timestamps its granule position gives ({@code pts + duration} is the
 * granule, which is what the Ogg muxer writes), so the existing muxing (chained Ogg, fragmented MP4
 * for HLS) carries it unchanged. The clock's floats are copied straight into libvorbis's analysis
 * buffer and each packet into one reused native buffer: nothing is allocated per tick.
 */
final class VorbisAudioEncoder implements AudioEncoder {
    static final String CODEC = "libvorbis";

    /**
     * The options this encoder takes: FFmpeg's names for them, as {@code %ffmpeg(%audio(codec=
     * "libvorbis", ...))} gives them.
     */
    static final Set<String> OPTIONS = Set.of("q", "b", "minrate", "maxrate");

    /**
     * Quality (VBR) or a nominal bit rate (managed), as libvorbisenc's two set-ups take them.
     *
     * @param quality -0.1 to 1.0, when {@code nominal} is 0
     * @param nominal bit/s; 0 for quality mode
     * @param min bit/s, -1 for none
     * @param max bit/s, -1 for none
     */
    record Settings(float quality, long nominal, long min, long max) {
        /** Liquidsoap's {@code %vorbis} default, about 112 kbit/s for stereo at 44.1 kHz. */
        static final float DEFAULT_QUALITY = 0.3f;

        /**
         * {@code q} on FFmpeg's scale (-1 to 10, as {@code ffmpeg -q:a}), or {@code b} with
         * optional {@code minrate} and {@code maxrate}; quality 0.3 without either. Throws
         * IllegalArgumentException naming a bad value.
         */
        static Settings of(Map<String, String> options) {
            String q = options.get("q");
            String b = options.get("b");
            if (q != null && b != null)
                throw new IllegalArgumentException(
                        "libvorbis: give q (quality) or b (bit rate), not both");
            if (b == null && (options.containsKey("minrate") || options.containsKey("maxrate")))
                throw new IllegalArgumentException("libvorbis: minrate and maxrate go with b");
            if (b != null) {
                return new Settings(
                        0,
                        rate("b", b),
                        options.containsKey("minrate")
                                ? rate("minrate", options.get("minrate"))
                                : -1,
                        options.containsKey("maxrate")
                                ? rate("maxrate", options.get("maxrate"))
                                : -1);
            }
            if (q == null) return new Settings(DEFAULT_QUALITY, 0, -1, -1);
            float quality;
            try {
                quality = Float.parseFloat(q.trim()) / 10;
            } catch (NumberFormatException e) {
                quality = Float.NaN;
            }
            if (!(quality >= -0.1f && quality <= 1.0f))
                throw new IllegalArgumentException(
                        "libvorbis: q=" + q + ": a quality from -1 to 10");
            return new Settings(quality, 0, -1, -1);
        }

        private static long rate(String name, String v) {
            int kbps = BitRateOption.kbps(v);
            if (kbps < 8 || kbps > 500)
                throw new IllegalArgumentException(
                        "libvorbis: " + name + "=" + v + ": a rate from 8k to 500k");
            return kbps * 1000L;
        }
    }

    /** vorbis_info's {@code long bitrate_nominal}, after version, channels and rate. */
    private static final long INFO_NOMINAL = 24;

    private final Vorbisenc vorbis;
    private final int channels;
    private final int inChannels;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment info;
    private final MemorySegment comment;
    private final MemorySegment dsp;
    private final MemorySegment block;
    private final MemorySegment op;
    private boolean infoReady;
    private boolean commentReady;
    private boolean dspReady;
    private boolean blockReady;
    private AVCodecContext codec;
    private AVRational timeBase;
    private AVPacket packet;
    private MemorySegment bytes;
    private BytePointer bytesView;
    private long granule;

    VorbisAudioEncoder(Vorbisenc vorbis, Settings settings, int channels, AudioFormat input)
            throws IOException {
        this.vorbis = vorbis;
        this.channels = channels;
        this.inChannels = input.channels();
        if (channels != inChannels && !(channels <= 2 && inChannels <= 2))
            throw new IllegalArgumentException(
                    "libvorbis: "
                            + channels
                            + " channels from the station's "
                            + inChannels
                            + ": only mono and stereo are converted here");
        info = arena.allocate(Vorbisenc.STRUCT);
        comment = arena.allocate(Vorbisenc.STRUCT);
        dsp = arena.allocate(Vorbisenc.STRUCT);
        block = arena.allocate(Vorbisenc.STRUCT);
        op = arena.allocate(Vorbisenc.PACKET_SIZE * 3);
        boolean ok = false;
        try {
            vorbis.infoInit.invokeExact(info.address());
            infoReady = true;
            int r =
                    settings.nominal() > 0
                            ? (int)
                                    vorbis.encodeInit.invokeExact(
                                            info.address(),
                                            (long) channels,
                                            (long) input.sampleRate(),
                                            settings.max(),
                                            settings.nominal(),
                                            settings.min())
                            : (int)
                                    vorbis.encodeInitVbr.invokeExact(
                                            info.address(),
                                            (long) channels,
                                            (long) input.sampleRate(),
                                            settings.quality());
            if (r != 0)
                throw new IllegalArgumentException(
                        "libvorbis cannot encode "
                                + describe(settings)
                                + " for "
                                + channels
                                + " channels at "
                                + input.sampleRate()
                                + " Hz (error "
                                + r
                                + ")");
            vorbis.commentInit.invokeExact(comment.address());
            commentReady = true;
            check((int) vorbis.analysisInit.invokeExact(dsp.address(), info.address()), "start");
            dspReady = true;
            check((int) vorbis.blockInit.invokeExact(dsp.address(), block.address()), "start");
            blockReady = true;
            long p0 = op.address();
            long p1 = p0 + Vorbisenc.PACKET_SIZE;
            long p2 = p1 + Vorbisenc.PACKET_SIZE;
            check(
                    (int)
                            vorbis.headerOut.invokeExact(
                                    dsp.address(), comment.address(), p0, p1, p2),
                    "write its headers");
            codec = descriptor(extradata(p0, p1, p2), input.sampleRate());
            timeBase = codec.time_base();
            packet = av_packet_alloc();
            ensureCapacity(8192);
            ok = true;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("libvorbis: " + e, e);
        } finally {
            if (!ok) close();
        }
    }

    private static String describe(Settings s) {
        return s.nominal() > 0
                ? "at " + s.nominal() / 1000 + " kbit/s"
                : "at quality " + s.quality();
    }

    private static void check(int r, String what) throws IOException {
        if (r != 0) throw new IOException("libvorbis could not " + what + " (error " + r + ")");
    }

    /**
     * The three headers laced as Xiph does: a count of 2, the first two lengths in 255-steps, then
     * the packets.
     */
    private byte[] extradata(long... packets) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(2);
        for (int i = 0; i < 2; i++) {
            long n =
                    MemorySegment.ofAddress(packets[i])
                            .reinterpret(Vorbisenc.PACKET_SIZE)
                            .get(JAVA_LONG, Vorbisenc.PACKET_BYTES);
            for (; n >= 255; n -= 255) out.write(255);
            out.write((int) n);
        }
        for (long p : packets) {
            MemorySegment header = MemorySegment.ofAddress(p).reinterpret(Vorbisenc.PACKET_SIZE);
            long data = header.get(JAVA_LONG, Vorbisenc.PACKET_DATA);
            long n = header.get(JAVA_LONG, Vorbisenc.PACKET_BYTES);
            out.writeBytes(MemorySegment.ofAddress(data).reinterpret(n).toArray(JAVA_BYTE));
        }
        return out.toByteArray();
    }

    /** What the muxer reads of the stream: an unopened context with the headers as extradata. */
    private AVCodecContext descriptor(byte[] headers, int rate) {
        AVCodecContext c = avcodec_alloc_context3((AVCodec) null);
        c.codec_type(AVMEDIA_TYPE_AUDIO)
                .codec_id(AV_CODEC_ID_VORBIS)
                .sample_fmt(AV_SAMPLE_FMT_FLTP);
        c.sample_rate(rate);
        av_channel_layout_default(c.ch_layout(), channels);
        c.bit_rate(Math.max(0, info.get(JAVA_LONG, INFO_NOMINAL)));
        c.time_base().num(1).den(rate);
        BytePointer extra =
                new BytePointer(av_mallocz(headers.length + AV_INPUT_BUFFER_PADDING_SIZE));
        extra.put(headers);
        c.extradata(extra).extradata_size(headers.length);
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
        try {
            long planes = (long) vorbis.analysisBuffer.invokeExact(dsp.address(), n);
            MemorySegment all = Vorbisenc.ALL;
            if (channels == inChannels) {
                for (int c = 0; c < channels; c++) {
                    long plane = all.get(JAVA_LONG, planes + 8L * c);
                    MemorySegment.copy(in.channel(c), from, all, JAVA_FLOAT, plane, n);
                }
            } else if (channels == 2) { // mono to both sides
                for (int c = 0; c < 2; c++) {
                    long plane = all.get(JAVA_LONG, planes + 8L * c);
                    MemorySegment.copy(in.channel(0), from, all, JAVA_FLOAT, plane, n);
                }
            } else { // stereo down to mono
                long plane = all.get(JAVA_LONG, planes);
                float[] l = in.channel(0);
                float[] r = in.channel(1);
                for (int i = 0; i < n; i++)
                    all.set(JAVA_FLOAT, plane + 4L * i, (l[from + i] + r[from + i]) * 0.5f);
            }
            check((int) vorbis.analysisWrote.invokeExact(dsp.address(), n), "take samples");
            drain(sink);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("libvorbis: " + e, e);
        }
    }

    /** Analyses every whole block libvorbis has and hands out the packets its bit rate gives. */
    private void drain(PacketSink sink) throws Throwable {
        long d = dsp.address();
        long b = block.address();
        long p = op.address();
        while ((int) vorbis.blockOut.invokeExact(d, b) == 1) {
            check((int) vorbis.analysis.invokeExact(b, 0L), "analyse a block");
            check((int) vorbis.bitrateAddBlock.invokeExact(b), "analyse a block");
            while ((int) vorbis.bitrateFlushPacket.invokeExact(d, p) == 1) emit(sink);
        }
    }

    /**
     * One packet, its pts where the previous one's granule ended: the first, which only primes the
     * decoder, lasts 0 samples; the last is cut at the last real sample, as its granule says.
     */
    private void emit(PacketSink sink) throws IOException {
        long data = op.get(JAVA_LONG, Vorbisenc.PACKET_DATA);
        int n = (int) op.get(JAVA_LONG, Vorbisenc.PACKET_BYTES);
        long end = op.get(JAVA_LONG, Vorbisenc.PACKET_GRANULE);
        ensureCapacity(n);
        MemorySegment.copy(Vorbisenc.ALL, data, bytes, 0, n);
        long duration = Math.max(0, end - granule);
        packet.data(bytesView.position(0)).size(n);
        packet.pts(granule).dts(granule).duration(duration).flags(AV_PKT_FLAG_KEY).stream_index(0);
        granule += duration;
        try {
            sink.accept(packet, timeBase);
        } finally {
            av_packet_unref(packet); // the packet owns no buffer: this only clears its fields
        }
    }

    @Override
    public void finish(PacketSink sink) throws IOException {
        if (!blockReady) return;
        try {
            check((int) vorbis.analysisWrote.invokeExact(dsp.address(), 0), "end the stream");
            drain(sink);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException("libvorbis: " + e, e);
        }
    }

    private void ensureCapacity(int n) {
        if (bytes != null && bytes.byteSize() >= n + AV_INPUT_BUFFER_PADDING_SIZE) return;
        if (bytesView != null) bytesView.close();
        bytes = arena.allocate(Math.max(2L * n, 8192) + AV_INPUT_BUFFER_PADDING_SIZE);
        bytesView = new BytePointer(bytes.asByteBuffer());
    }

    @Override
    public void close() {
        try {
            if (blockReady) {
                int ignored = (int) vorbis.blockClear.invokeExact(block.address());
            }
            if (dspReady) vorbis.dspClear.invokeExact(dsp.address());
            if (commentReady) vorbis.commentClear.invokeExact(comment.address());
            if (infoReady) vorbis.infoClear.invokeExact(info.address());
        } catch (Throwable e) {
            // nothing to do: the encoder is gone either way
        }
        blockReady = dspReady = commentReady = infoReady = false;
        if (packet != null) av_packet_free(packet);
        if (codec != null) avcodec_free_context(codec);
        packet = null;
        codec = null;
        if (bytesView != null) bytesView.close();
        bytesView = null;
        if (arena.scope().isAlive()) arena.close();
    }
}
