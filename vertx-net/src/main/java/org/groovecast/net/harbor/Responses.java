package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** HTTP response heads and the harbor's small error answers. */
final class Responses {
    private Responses() {
    }

    static String reason(int status) {
        return switch (status) {
            case 100 -> "Continue";
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
            case 405 -> "Method Not Allowed";
            case 411 -> "Length Required";
            case 413 -> "Content Too Large";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    /**
     * A response head: status line, the given headers, {@code Content-Length} when {@code length}
     * is not negative, and {@code Connection: close} unless {@code keepAlive}.
     */
    static ByteBuf head(ByteBufAllocator alloc, String version, int status, Map<String, String> headers, long length,
                        boolean keepAlive) {
        StringBuilder b = new StringBuilder(128);
        b.append(version).append(' ').append(status).append(' ').append(reason(status)).append("\r\n");
        for (Map.Entry<String, String> h : headers.entrySet()) {
            b.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        if (length >= 0) b.append("Content-Length: ").append(length).append("\r\n");
        b.append(keepAlive ? "" : "Connection: close\r\n").append("\r\n");
        ByteBuf out = alloc.buffer(b.length());
        out.writeCharSequence(b, StandardCharsets.ISO_8859_1);
        return out;
    }

    /** A complete plain-text answer such as a 404. */
    static ByteBuf text(ByteBufAllocator alloc, String version, int status, String message, boolean keepAlive,
                        Map<String, String> extra) {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new java.util.LinkedHashMap<>(extra);
        headers.put("Content-Type", "text/plain; charset=utf-8");
        ByteBuf head = head(alloc, version, status, headers, body.length, keepAlive);
        return head.writeBytes(body);
    }
}
