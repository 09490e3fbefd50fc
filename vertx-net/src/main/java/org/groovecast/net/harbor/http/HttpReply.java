package org.groovecast.net.harbor.http;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a script's HTTP handler returns, made by {@code http.response(...)}.
 *
 * @param data a String, a byte[], a {@link java.nio.file.Path} (sent from the file, not read into
 *     memory), an {@link java.io.InputStream} (streamed until its end), or null
 */
public record HttpReply(int status, String contentType, Map<String, String> headers, Object data) {
    private static final byte[] NO_BYTES = new byte[0];

    public HttpReply {
        headers = Map.copyOf(headers);
    }

    /** Whether the body is sent from a file or a stream rather than held in memory. */
    public boolean streamed() {
        return data instanceof Path || data instanceof InputStream;
    }

    /**
     * The same reply with a text body as its UTF-8 bytes, for a handler off the loop to encode on
     * its own thread: the loop then only copies them.
     */
    public HttpReply encoded() {
        return data instanceof byte[] || streamed()
                ? this
                : new HttpReply(status, contentType, headers, bytes(data));
    }

    /**
     * A body held in memory as bytes: text as UTF-8, none as none. {@link String#getBytes} rather
     * than Netty's {@code ByteBufUtil.writeUtf8}, which goes char by char: for a 1 KiB reply at
     * 60,000 requests a second that was 17 % of the event loops' time (bench/README, HarborHttp).
     */
    public static byte[] bytes(Object data) {
        if (data == null) return NO_BYTES;
        if (data instanceof byte[] b) return b;
        return data.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static HttpReply text(int status, String text) {
        return new HttpReply(status, "text/plain; charset=utf-8", Map.of(), text);
    }
}
