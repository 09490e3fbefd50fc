package org.groovecast.host.http;

import java.util.Collections;
import java.util.Map;

/**
 * What {@code http.get} and its siblings return: {@code r.status}, {@code r.headers} (names in any
 * case, repeated headers joined with ", ") and {@code r.body}. It is also the body as a string, the
 * way Liquidsoap's HTTP functions return a string with methods: {@code json.parse(http.get(url))},
 * {@code "${r}"} and {@code log.info(r)} all see the body.
 */
public final class HttpResult implements CharSequence {
    private final int status;
    private final Map<String, String> headers;
    private final String body;

    HttpResult(int status, Map<String, String> headers, String body) {
        this.status = status;
        this.headers = Collections.unmodifiableMap(headers);
        this.body = body;
    }

    /** The status code: 200, 404... */
    public int getStatus() {
        return status;
    }

    /** The response headers; {@code r.headers['content-type']} finds {@code Content-Type}. */
    public Map<String, String> getHeaders() {
        return headers;
    }

    /** The body, decoded with the charset of its Content-Type (UTF-8 when it names none). */
    public String getBody() {
        return body;
    }

    @Override
    public int length() {
        return body.length();
    }

    @Override
    public char charAt(int index) {
        return body.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return body.subSequence(start, end);
    }

    @Override
    public boolean isEmpty() {
        return body.isEmpty();
    }

    @Override
    public String toString() {
        return body;
    }
}
