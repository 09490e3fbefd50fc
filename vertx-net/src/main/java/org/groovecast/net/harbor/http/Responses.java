package org.groovecast.net.harbor.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** HTTP response heads, replies held in memory, and the harbor's small error answers, as bytes. */
public final class Responses {
    private Responses() {}

    public static String reason(int status) {
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
            case 408 -> "Request Timeout";
            case 411 -> "Length Required";
            case 413 -> "Content Too Large";
            case 429 -> "Too Many Requests";
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
    public static ByteBuf head(
            ByteBufAllocator alloc,
            String version,
            int status,
            Map<String, String> headers,
            long length,
            boolean keepAlive) {
        return head(alloc, version, status, null, headers, length, keepAlive, 0);
    }

    /**
     * The same with a Content-Type given apart, written straight into a buffer with {@code
     * bodyRoom} bytes to spare for the body that follows.
     */
    public static ByteBuf head(
            ByteBufAllocator alloc,
            String version,
            int status,
            String contentType,
            Map<String, String> headers,
            long length,
            boolean keepAlive,
            int bodyRoom) {
        ByteBuf out = alloc.buffer(160 + bodyRoom);
        ascii(out, version).writeByte(' ');
        ascii(out, Integer.toString(status)).writeByte(' ');
        ascii(out, reason(status)).writeByte('\r').writeByte('\n');
        if (contentType != null)
            ascii(ascii(out, "Content-Type: "), contentType).writeByte('\r').writeByte('\n');
        for (Map.Entry<String, String> h : headers.entrySet()) {
            ascii(ascii(ascii(out, h.getKey()), ": "), h.getValue())
                    .writeByte('\r')
                    .writeByte('\n');
        }
        if (length >= 0)
            ascii(ascii(out, "Content-Length: "), Long.toString(length))
                    .writeByte('\r')
                    .writeByte('\n');
        if (!keepAlive) ascii(out, "Connection: close\r\n");
        return out.writeByte('\r').writeByte('\n');
    }

    private static ByteBuf ascii(ByteBuf out, CharSequence s) {
        out.writeCharSequence(s, StandardCharsets.ISO_8859_1);
        return out;
    }

    /**
     * A reply whose body is in memory (text, a byte[], or none) as one buffer, its head and body. A
     * {@code bodyless} one (the answer to HEAD) says the body's length and leaves it out; a 204 has
     * no body, so no length either (RFC 9110 8.6).
     */
    public static ByteBuf reply(
            ByteBufAllocator alloc,
            String version,
            HttpReply r,
            boolean keepAlive,
            boolean bodyless) {
        byte[] body = HttpReply.bytes(r.data());
        ByteBuf out =
                head(
                        alloc,
                        version,
                        r.status(),
                        r.contentType(),
                        r.headers(),
                        r.status() == 204 ? -1 : body.length,
                        keepAlive,
                        bodyless ? 0 : body.length);
        if (!bodyless && r.status() != 204) out.writeBytes(body);
        return out;
    }

    /** A complete plain-text answer such as a 404. */
    public static ByteBuf text(
            ByteBufAllocator alloc,
            String version,
            int status,
            String message,
            boolean keepAlive,
            Map<String, String> extra) {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new java.util.LinkedHashMap<>(extra);
        headers.put("Content-Type", "text/plain; charset=utf-8");
        ByteBuf head = head(alloc, version, status, headers, body.length, keepAlive);
        return head.writeBytes(body);
    }
}
