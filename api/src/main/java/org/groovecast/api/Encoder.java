package org.groovecast.api;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;

/**
 * An encoding format chosen in a script ({@code wav()}, later {@code mp3(bitrate: 128)}), opened by
 * an output for each destination it writes.
 */
public interface Encoder {
    /** The script name of the format, for messages: {@code "wav"}. */
    String name();

    /** The usual file extension, without the dot. */
    String extension();

    /**
     * The MIME type of the stream, for HTTP listeners and Icecast: from the extension by default.
     */
    default String contentType() {
        return switch (extension()) {
            case "mp3" -> "audio/mpeg";
            case "aac" -> "audio/aac";
            case "ogg", "opus", "oga" -> "audio/ogg";
            case "flac" -> "audio/flac";
            case "wav" -> "audio/wav";
            case "ts" -> "video/mp2t";
            case "mkv" -> "video/x-matroska";
            case "webm" -> "video/webm";
            case "flv" -> "video/x-flv";
            default -> "application/octet-stream";
        };
    }

    /**
     * The nominal bit rate in kbit/s ({@code 128} for {@code mp3(bitrate: 128)}), which listeners
     * see as {@code icy-br}; 0 when unknown or variable (lossless, quality-based VBR, PCM whose
     * rate depends on the stream).
     */
    default int bitrate() {
        return 0;
    }

    /**
     * Starts an encoding into {@code out}. When {@code out} is also a {@link
     * java.nio.channels.SeekableByteChannel} the encoder may go back to fix its header on close.
     */
    Session open(AudioFormat format, WritableByteChannel out) throws IOException;

    /**
     * Starts an encoding of audio and, for encoders with a video stream, the frames' images in
     * {@code video}'s layout. Audio-only encoders ignore images; this is what outputs call.
     */
    default Session open(AudioFormat format, VideoFormat video, WritableByteChannel out)
            throws IOException {
        return open(format, out);
    }

    /**
     * Whether titles travel in the stream itself: an output starts a new encoding, in the same
     * bytes, at each track (a chained Ogg stream: a new logical stream whose headers carry the
     * track's tags), as Icecast and Ogg players read titles. False: titles go beside the stream
     * (ICY metadata, Icecast's metadata update).
     */
    default boolean inBandMetadata() {
        return false;
    }

    /**
     * Starts an encoding whose stream carries {@code tags} (title, artist...) where its format has
     * a place for them; encoders whose format has none ignore them.
     */
    default Session open(
            AudioFormat format, VideoFormat video, WritableByteChannel out, Metadata tags)
            throws IOException {
        return open(format, video, out);
    }

    /** One running encoding. */
    interface Session extends AutoCloseable {
        /** Encodes samples {@code [0, frame.position())} of {@code frame}. */
        void encode(Frame frame) throws IOException;

        /**
         * Pushes what the container holds to the channel now, for live outputs that send each
         * frame's bytes at once; files need not call it.
         */
        default void flush() throws IOException {}

        /** Flushes what is pending and finalises the stream; the channel stays open. */
        @Override
        void close() throws IOException;
    }
}
