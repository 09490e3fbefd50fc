package org.groovecast.api;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.pf4j.ExtensionPoint;

/**
 * Decodes a live byte stream, such as a DJ's Icecast source connection, to the clock's format. A
 * plugin provides it (the FFmpeg plugin does); the engine's live inputs use the first one found.
 * Everything here blocks on the input, so it runs on a thread of the live input's own, never on a
 * clock.
 */
public interface LiveDecoder extends ExtensionPoint {
    /**
     * Probes {@code in} and returns a decoding of it; blocks until enough of the stream arrived.
     *
     * @param contentType the client's {@code Content-Type} (a hint; may be null)
     */
    Stream open(InputStream in, String contentType, AudioFormat format) throws IOException;

    /**
     * The same, with the stream's video too, if it has some, scaled to {@code video}: then {@link
     * Stream#read} also attaches the pictures due in the samples it returns. By default the video
     * is ignored.
     *
     * @param context the live input's, where the decoder reads the settings it declared ({@link
     *     SettingSpec#valueIn}); may be null, then their defaults apply
     */
    default Stream open(
            InputStream in,
            String contentType,
            AudioFormat format,
            VideoFormat video,
            StreamContext context)
            throws IOException {
        return open(in, contentType, format);
    }

    /** One live stream being decoded. */
    interface Stream extends AutoCloseable {
        /**
         * Decodes the next samples into {@code frame} from its position (blocking on input) and
         * advances it; returns how many. 0 means the stream ended. Pictures attached to the frame
         * stay valid until the next call: copy them to keep them.
         */
        int read(Frame frame) throws IOException;

        /**
         * Tags the stream carried so far (title, artist...), keys lower-case; may change as it
         * plays.
         */
        Map<String, String> tags();

        @Override
        void close();
    }
}
