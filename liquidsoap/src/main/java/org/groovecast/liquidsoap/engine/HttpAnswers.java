package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.Map;
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

    private static String message(int status) {
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
