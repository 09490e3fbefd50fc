package org.groovecast.net.harbor.http;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A request as a script handler sees it: {@code req.method}, {@code req.path}, {@code req.query},
 * {@code req.headers} (names lower-case), {@code req.params} (from {@code :name} segments), {@code
 * req.body} (text) and {@code req.data} (bytes).
 */
public record HttpRequest(
        String method,
        String path,
        Map<String, String> query,
        Map<String, String> headers,
        Map<String, String> params,
        byte[] data) {
    public String body() {
        return new String(data, StandardCharsets.UTF_8);
    }

    // Getters, so that scripts read them as properties: req.path
    public String getMethod() {
        return method;
    }

    public String getPath() {
        return path;
    }

    public Map<String, String> getQuery() {
        return query;
    }

    public Map<String, String> getHeaders() {
        return headers;
    }

    public Map<String, String> getParams() {
        return params;
    }

    public String getBody() {
        return body();
    }

    public byte[] getData() {
        return data;
    }
}
