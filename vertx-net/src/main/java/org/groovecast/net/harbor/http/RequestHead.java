package org.groovecast.net.harbor.http;

import io.netty.buffer.ByteBuf;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A parsed HTTP/1.x request head (request line and headers), as the harbor port reads it itself:
 * Icecast source clients send {@code SOURCE /mount HTTP/1.0} with a body that never ends, which a
 * general HTTP server would not hand over.
 *
 * @param headers names compared without case
 */
public record RequestHead(
        String method,
        String target,
        String path,
        Map<String, String> query,
        String version,
        Map<String, String> headers) {

    /** Thrown for a request that cannot be parsed: answered with 400 and the connection closed. */
    public static final class Malformed extends Exception {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    public String header(String name) {
        return headers.get(name);
    }

    /**
     * Whether the connection stays open after the response (HTTP/1.1 unless {@code Connection:
     * close}).
     */
    public boolean keepAlive() {
        String c = header("connection");
        if (c != null) {
            String v = c.toLowerCase(Locale.ROOT);
            if (v.contains("close")) return false;
            if (v.contains("keep-alive")) return true;
        }
        return version.equals("HTTP/1.1");
    }

    /** Length of the body, 0 when there is none; -1 for a chunked body. */
    long contentLength() throws Malformed {
        String te = header("transfer-encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) return -1;
        String cl = header("content-length");
        if (cl == null) return 0;
        try {
            long n = Long.parseLong(cl.trim());
            if (n < 0) throw new Malformed("negative Content-Length");
            return n;
        } catch (NumberFormatException e) {
            throw new Malformed("bad Content-Length " + cl);
        }
    }

    /** Parses bytes {@code [from, to)} of {@code buf}: the head without its final blank line. */
    public static RequestHead parse(ByteBuf buf, int from, int to) throws Malformed {
        String text = buf.toString(from, to - from, StandardCharsets.ISO_8859_1);
        int eol = text.indexOf("\r\n");
        String line = eol < 0 ? text : text.substring(0, eol);
        int s1 = line.indexOf(' ');
        int s2 = line.lastIndexOf(' ');
        if (s1 <= 0 || s2 <= s1) throw new Malformed("bad request line");
        String method = line.substring(0, s1);
        String target = line.substring(s1 + 1, s2);
        String version = line.substring(s2 + 1);
        if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0"))
            throw new Malformed("bad HTTP version");
        for (int i = 0; i < method.length(); i++) {
            char c = method.charAt(i);
            if (c < 'A' || c > 'Z') throw new Malformed("bad method");
        }
        // "*" is OPTIONS' own target (RFC 9112 3.2.4): libshout asks "OPTIONS *" before every
        // connection.
        boolean asterisk = target.equals("*") && method.equals("OPTIONS");
        if (!asterisk && (target.isEmpty() || target.charAt(0) != '/'))
            throw new Malformed("bad target");
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c == 0x7f) throw new Malformed("bad target");
        }
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        int at = eol < 0 ? text.length() : eol + 2;
        while (at < text.length()) {
            int end = text.indexOf("\r\n", at);
            if (end < 0) end = text.length();
            String h = text.substring(at, end);
            at = end + 2;
            if (h.isEmpty()) continue;
            int colon = h.indexOf(':');
            if (colon <= 0 || h.charAt(colon - 1) == ' ') throw new Malformed("bad header line");
            String name = h.substring(0, colon);
            String value = h.substring(colon + 1).strip();
            headers.merge(name, value, (a, b) -> a + ", " + b);
        }
        int q = target.indexOf('?');
        // In a path '+' is a plus; in a query it is a space.
        String path = decode((q < 0 ? target : target.substring(0, q)).replace("+", "%2B"));
        // An encoded NUL or control character names no file nor mount: it is an attack on whatever
        // reads the path.
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < ' ' || c == 0x7f) throw new Malformed("control character in the path");
        }
        Map<String, String> query = q < 0 ? Map.of() : query(target.substring(q + 1));
        return new RequestHead(
                method, target, path, query, version, Collections.unmodifiableMap(headers));
    }

    /** The parameters of an {@code application/x-www-form-urlencoded} body, as a query's. */
    public static Map<String, String> form(String raw) throws Malformed {
        return query(raw);
    }

    private static Map<String, String> query(String raw) throws Malformed {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            out.put(
                    decode(eq < 0 ? pair : pair.substring(0, eq)),
                    eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return Collections.unmodifiableMap(out);
    }

    private static String decode(String s) throws Malformed {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new Malformed("bad percent-encoding");
        }
    }
}
