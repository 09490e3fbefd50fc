package org.groovecast.net.harbor.http;

import java.util.Map;

/**
 * What a script's HTTP handler returns, made by {@code http.response(...)}.
 *
 * @param data a String, a byte[], a {@link java.nio.file.Path} (sent from the file, not read into
 *     memory), an {@link java.io.InputStream} (streamed until its end), or null
 */
public record HttpReply(int status, String contentType, Map<String, String> headers, Object data) {
    public HttpReply {
        headers = Map.copyOf(headers);
    }

    public static HttpReply text(int status, String text) {
        return new HttpReply(status, "text/plain; charset=utf-8", Map.of(), text);
    }
}
