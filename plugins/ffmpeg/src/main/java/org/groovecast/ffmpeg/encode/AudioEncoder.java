package org.groovecast.ffmpeg.encode;

import java.io.IOException;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;

/**
 * Turns the clock's planar float frames into one codec's packets. FFmpeg's encoders do it for every
 * codec; MP3 goes to the system's LAME when there is one ({@link LameAudioEncoder}), which a
 * distribution builds optimized and the bundled natives do not; {@code libvorbis} and {@code
 * libfdk_aac}, which the bundled natives lack, go to the system's libvorbisenc ({@link
 * VorbisAudioEncoder}) and libfdk-aac ({@link FdkAacAudioEncoder}) when they are installed.
 */
interface AudioEncoder extends AutoCloseable {
    /** Receives each encoded packet; the packet is only valid during the call. */
    @FunctionalInterface
    interface PacketSink {
        void accept(AVPacket packet, AVRational timeBase) throws IOException;
    }

    /**
     * The encoder for {@code codecName} with the script's options: the system LAME for libmp3lame
     * when it is found and takes every option given, else FFmpeg's encoder (which names an option
     * neither knows).
     */
    static AudioEncoder open(
            String codecName,
            Map<String, String> options,
            int threads,
            AudioFormat input,
            boolean globalHeader)
            throws IOException {
        if (VorbisAudioEncoder.CODEC.equals(codecName))
            return openVorbis(options, threads, input, globalHeader, Vorbisenc.system());
        if (FdkAacAudioEncoder.CODEC.equals(codecName) && FdkAac.system() != null)
            return openFdkAac(options, input, globalHeader, FdkAac.system());
        return open(
                codecName,
                options,
                threads,
                input,
                globalHeader,
                LameAudioEncoder.CODEC.equals(codecName) ? Lame.system() : null);
    }

    /**
     * {@code libvorbis} through {@code vorbis}, or, when null (no libvorbisenc, which the loader
     * said once), FFmpeg's experimental native encoder with the options libvorbis alone takes left
     * out. The options are judged the same either way.
     */
    static AudioEncoder openVorbis(
            Map<String, String> options,
            int threads,
            AudioFormat input,
            boolean globalHeader,
            Vorbisenc vorbis)
            throws IOException {
        StreamShape shape = StreamShape.of(options, input);
        Map<String, String> rest = new java.util.LinkedHashMap<>(shape.codecOptions());
        rest.keySet().removeAll(VorbisAudioEncoder.OPTIONS);
        VorbisAudioEncoder.Settings settings = VorbisAudioEncoder.Settings.of(shape.codecOptions());
        if (vorbis == null) {
            Map<String, String> native_ = new java.util.LinkedHashMap<>(options);
            native_.keySet().removeAll(VorbisAudioEncoder.OPTIONS);
            native_.putIfAbsent("strict", "experimental");
            return new FfmpegAudioEncoder(
                    "vorbis", StreamShape.of(native_, input), threads, input, globalHeader);
        }
        if (!rest.isEmpty())
            throw new IllegalArgumentException(
                    "unknown option"
                            + (rest.size() > 1 ? "s " : " ")
                            + String.join(", ", rest.keySet())
                            + " for codec libvorbis (it takes q, b, minrate, maxrate, ac, ar)");
        if (shape.sampleRate() != input.sampleRate())
            throw new IllegalArgumentException(
                    "libvorbis encodes at the station's rate ("
                            + input.sampleRate()
                            + " Hz), not ar="
                            + shape.sampleRate());
        return new VorbisAudioEncoder(vorbis, settings, shape.channels(), input);
    }

    /**
     * {@code libfdk_aac} through the system's libfdk-aac (not in Debian main: see {@link FdkAac}).
     */
    static AudioEncoder openFdkAac(
            Map<String, String> options, AudioFormat input, boolean globalHeader, FdkAac fdk)
            throws IOException {
        StreamShape shape = StreamShape.of(options, input);
        if (shape.sampleRate() != input.sampleRate())
            throw new IllegalArgumentException(
                    "libfdk_aac encodes at the station's rate ("
                            + input.sampleRate()
                            + " Hz), not ar="
                            + shape.sampleRate());
        FdkAacSettings settings =
                FdkAacSettings.of(shape.codecOptions(), shape.channels(), input.sampleRate());
        return new FdkAacAudioEncoder(fdk, settings, input, globalHeader);
    }

    /**
     * As {@link #open(String, Map, int, AudioFormat, boolean)} with this LAME, or FFmpeg's own if
     * null.
     */
    static AudioEncoder open(
            String codecName,
            Map<String, String> options,
            int threads,
            AudioFormat input,
            boolean globalHeader,
            Lame lame)
            throws IOException {
        StreamShape shape = StreamShape.of(options, input);
        if (lame != null && LameAudioEncoder.CODEC.equals(codecName)) {
            // The system LAME path encodes the station's channels at its rate; another shape
            // goes to FFmpeg's wrapper, which converts.
            LameAudioEncoder.Settings settings =
                    shape.keeps(input)
                            ? LameAudioEncoder.Settings.of(shape.codecOptions(), input)
                            : null;
            if (settings != null) return new LameAudioEncoder(lame, settings, input);
        }
        return new FfmpegAudioEncoder(codecName, shape, threads, input, globalHeader);
    }

    /** The codec's parameters, for the muxer's stream (an unopened context for the system LAME). */
    AVCodecContext context();

    /**
     * Encodes samples [0, frame.position()) and passes every packet that comes out to {@code sink}.
     */
    default void encode(Frame in, PacketSink sink) throws IOException {
        encode(in, 0, in.position(), sink);
    }

    /** Encodes samples [from, to) of {@code in}. */
    void encode(Frame in, int from, int to, PacketSink sink) throws IOException;

    /** Encodes what is still buffered and passes the last packets to {@code sink}. */
    void finish(PacketSink sink) throws IOException;

    @Override
    void close();
}
