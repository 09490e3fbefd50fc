package org.groovecast.ffmpeg.encode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.VideoFormat;

/**
 * An encoding chosen by a script: a muxer format, an audio codec and their options, any FFmpeg
 * option passed through. {@link #validate()} opens the codec and muxer once when the script loads,
 * so a misspelt codec or option is a script error with its line, not a failure on air.
 */
public final class FfmpegEncoder implements Encoder {
    private final String name;
    private final String format;
    private final String codec;
    private final Map<String, String> codecOptions;
    private final Map<String, String> formatOptions;
    private final int threads;
    private final Codec video;

    /** A video codec, its options and threads. */
    record Codec(String name, Map<String, String> options, int threads) {
        Codec {
            options = Map.copyOf(options);
        }
    }

    FfmpegEncoder(
            String name,
            String format,
            String codec,
            Map<String, String> codecOptions,
            Map<String, String> formatOptions,
            int threads) {
        this(name, format, codec, codecOptions, formatOptions, threads, null);
    }

    /**
     * @param video the video codec, or null for audio only
     */
    FfmpegEncoder(
            String name,
            String format,
            String codec,
            Map<String, String> codecOptions,
            Map<String, String> formatOptions,
            int threads,
            Codec video) {
        this.name = name;
        this.format = format;
        this.codec = codec;
        this.codecOptions = Map.copyOf(codecOptions);
        this.formatOptions = Map.copyOf(formatOptions);
        this.threads = threads;
        this.video = video;
    }

    /** The video codec, or null when this encoding is audio only. */
    public Codec video() {
        return video;
    }

    @Override
    public String name() {
        return name;
    }

    public String format() {
        return format;
    }

    public String codec() {
        return codec;
    }

    /** The muxer options the script gave the encoder. */
    public Map<String, String> formatOptions() {
        return formatOptions;
    }

    /** The same encoding muxed as {@code otherFormat} (output.url's {@code format:}). */
    public FfmpegEncoder withFormat(String otherFormat) {
        return otherFormat.equals(format)
                ? this
                : new FfmpegEncoder(
                        name, otherFormat, codec, codecOptions, formatOptions, threads, video);
    }

    @Override
    public String extension() {
        return switch (format) {
            case "adts" -> "aac";
            case "mpegts" -> "ts";
            case "matroska" -> "mkv";
            case "ogg" -> codec.contains("opus") ? "opus" : "ogg";
            default -> format;
        };
    }

    /**
     * The {@code b:} the script gave, in kbit/s; 0 without one, or when a quality option makes the
     * codec ignore it (VBR by {@code q}/{@code global_quality}), since then no rate is nominal.
     */
    @Override
    public int bitrate() {
        String b = codecOptions.get("b");
        if (b == null
                || codecOptions.containsKey("q")
                || codecOptions.containsKey("qscale")
                || codecOptions.containsKey("global_quality")
                || codecOptions.getOrDefault("flags", "").contains("qscale")) {
            return 0;
        }
        return Math.max(0, BitRateOption.kbps(b));
    }

    /**
     * Opens the codec and the muxer on a throwaway channel; throws IllegalArgumentException naming
     * what is wrong.
     */
    public FfmpegEncoder validate() {
        try (Session s = open(AudioFormat.DEFAULT, VideoFormat.DEFAULT, new DiscardChannel())) {
            return this;
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * A new encoder instance for this encoding, for outputs that manage muxing themselves (HLS).
     */
    AudioEncoder newAudioEncoder(AudioFormat input, boolean globalHeader) throws IOException {
        return AudioEncoder.open(codec, codecOptions, threads, input, globalHeader);
    }

    /**
     * New encoders for this encoding (audio, and video if it has a video codec), for outputs that
     * mux themselves.
     */
    public MediaEncoder newMediaEncoder(
            AudioFormat input, VideoFormat picture, boolean globalHeader) throws IOException {
        AudioEncoder a = newAudioEncoder(input, globalHeader);
        if (video == null) return new MediaEncoder(a, null);
        try {
            // The frames' pictures are yuv420p already: the scaler only runs for codecs that want
            // another format.
            return new MediaEncoder(
                    a,
                    new VideoEncoder(
                            video.name(),
                            video.options(),
                            video.threads(),
                            picture,
                            input,
                            1,
                            globalHeader));
        } catch (IOException | RuntimeException e) {
            a.close();
            throw e;
        }
    }

    @Override
    public Session open(AudioFormat input, WritableByteChannel out) throws IOException {
        return open(input, VideoFormat.DEFAULT, out);
    }

    @Override
    public Session open(AudioFormat input, VideoFormat picture, WritableByteChannel out)
            throws IOException {
        return open(input, picture, out, Metadata.EMPTY);
    }

    /** Ogg: a new track is a new logical stream (chained Ogg), its comment header its tags. */
    @Override
    public boolean inBandMetadata() {
        return format.equals("ogg");
    }

    @Override
    public Session open(
            AudioFormat input, VideoFormat picture, WritableByteChannel out, Metadata tags)
            throws IOException {
        MediaEncoder encoder = newMediaEncoder(input, picture, Muxer.wantsGlobalHeader(format));
        try {
            Muxer muxer = new Muxer(format, formatOptions, encoder.contexts(), out, tags);
            return new EncodingSession(encoder, muxer);
        } catch (IOException | RuntimeException e) {
            encoder.close();
            throw e;
        }
    }

    @Override
    public String toString() {
        Map<String, String> all = new LinkedHashMap<>(codecOptions);
        return name
                + "("
                + format
                + ", "
                + codec
                + (all.isEmpty() ? "" : ", " + all)
                + (video == null ? "" : ", " + video.name() + " " + video.options())
                + ")";
    }

    private record EncodingSession(MediaEncoder encoder, Muxer muxer, MediaEncoder.Sink sink)
            implements Session {
        EncodingSession(MediaEncoder encoder, Muxer muxer) {
            this(encoder, muxer, muxer::write);
        }

        @Override
        public void encode(Frame frame) throws IOException {
            encoder.encode(frame, sink);
        }

        @Override
        public void flush() throws IOException {
            muxer.flush();
        }

        @Override
        public void close() throws IOException {
            try {
                encoder.finish(sink);
                muxer.finish();
            } finally {
                muxer.close();
                encoder.close();
            }
        }
    }

    /** Swallows bytes, seekably: for validation only. */
    private static final class DiscardChannel implements SeekableByteChannel {
        private long position;
        private long size;

        @Override
        public int read(ByteBuffer dst) {
            return -1;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            position += n;
            size = Math.max(size, position);
            return n;
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public SeekableByteChannel position(long p) {
            position = p;
            return this;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public SeekableByteChannel truncate(long s) {
            size = Math.min(size, s);
            return this;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
