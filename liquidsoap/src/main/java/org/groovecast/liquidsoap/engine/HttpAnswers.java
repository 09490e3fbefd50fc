package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.host.http.HttpFailure;
import org.groovecast.host.http.HttpResult;
import org.groovecast.liquidsoap.eval.Rec;

/**
 * {@code http.get(...)} as Liquidsoap answers it: the body, a string, with fields {@code
 * status_code}, {@code status_message}, {@code headers} and {@code http_version}.
 */
final class HttpAnswers {
    private HttpAnswers() {}

    static Object of(Object answer) {
        if (!(answer instanceof HttpResult r)) return answer;
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("status_code", (long) r.getStatus());
        f.put("status_message", message(r.getStatus()));
        f.put("headers", EngineValues.pairs(r.getHeaders()));
        f.put("http_version", "1.1");
        return Rec.with(r.getBody(), f);
    }

    /**
     * A request that got no answer, as Liquidsoap 2.4.5 answers it (its curl errors): an empty body
     * with status 522 (no answer in time), 523 (the host cannot be reached), 525 (TLS handshake) or
     * 526 (certificate). AzuraCast's runtime reads the status of every call.
     */
    static Object failed(HttpFailure f) {
        int status;
        String message;
        switch (f.kind()) {
            case TIMEOUT -> {
                status = 522;
                message = "Connection timed out";
            }
            case UNREACHABLE -> {
                status = 523;
                message = "Origin is unreachable";
            }
            case TLS_HANDSHAKE -> {
                status = 525;
                message = "SSL handshake failed";
            }
            default -> {
                status = 526;
                message = "Invalid SSL certificate";
            }
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("status_code", (long) status);
        fields.put("status_message", message);
        fields.put("headers", EngineValues.pairs(Map.of()));
        fields.put("http_version", "1.0");
        return Rec.with("", fields);
    }

    static String message(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 204 -> "No Content";
            case 301 -> "Moved Permanently";
            case 302 -> "Found";
            case 304 -> "Not Modified";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> "";
        };
    }
}
