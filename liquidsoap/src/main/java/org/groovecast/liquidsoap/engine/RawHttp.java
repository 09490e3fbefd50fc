package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.net.harbor.http.HttpReply;

/**
 * The text a {@code harbor.http.register.simple} handler answers, when it is not an {@code
 * http.response(...)}: a whole HTTP answer ({@code "HTTP/1.1 404 Not Found\r\n...\r\n\r\nbody"}),
 * as Liquidsoap's handlers may write it, or else the body of a 200.
 */
final class RawHttp {
    private RawHttp() {}

    static HttpReply parse(String text) {
        if (!text.startsWith("HTTP/")) return HttpReply.text(200, text);
        int end = text.indexOf("\r\n\r\n");
        int skip = 4;
        if (end < 0) {
            end = text.indexOf("\n\n");
            skip = 2;
        }
        String head = end < 0 ? text : text.substring(0, end);
        String body = end < 0 ? "" : text.substring(end + skip);
        String[] lines = head.split("\r?\n");
        String[] status = lines[0].split(" ", 3);
        int code;
        try {
            code = status.length > 1 ? Integer.parseInt(status[1].trim()) : 200;
        } catch (NumberFormatException e) {
            return HttpReply.text(500, "the handler answered no HTTP status: " + lines[0]);
        }
        String type = null;
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) continue;
            String name = lines[i].substring(0, colon).trim();
            String value = lines[i].substring(colon + 1).trim();
            if (name.equalsIgnoreCase("content-type")) type = value;
            // The harbor counts the body itself
            else if (!name.equalsIgnoreCase("content-length")) headers.put(name, value);
        }
        return new HttpReply(code, type, headers, body);
    }
}
