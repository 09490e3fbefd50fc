package org.groovecast.net.harbor.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * The server's side of a WebSocket opening handshake (RFC 6455 4.2), on a request head the harbor
 * parsed itself: Netty's handshakers want its HTTP codec in the pipeline, which the harbor's port,
 * serving Icecast's {@code SOURCE} too, does not have. The frames after it are Netty's codec's.
 */
public final class WebSocketHandshake {
    /** RFC 6455 1.3: appended to the client's key before hashing. */
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    public static final String VERSION_REFUSAL = "WebSocket version";

    private WebSocketHandshake() {}

    /**
     * Why the request cannot be upgraded (a message for a 400, or 426 when it starts with {@link
     * #VERSION_REFUSAL}), or null.
     */
    public static String refusal(RequestHead head, String subprotocol) {
        String version = head.header("sec-websocket-version");
        if (version == null || !version.strip().equals("13")) {
            return VERSION_REFUSAL
                    + " "
                    + (version == null ? "missing" : ClientText.quoted(version))
                    + "; this server speaks 13";
        }
        String key = head.header("sec-websocket-key");
        if (key == null || key.isBlank()) return "the upgrade request has no Sec-WebSocket-Key";
        String offered = head.header("sec-websocket-protocol");
        if (offered != null && !offers(offered, subprotocol)) {
            return "this mount speaks the WebSocket subprotocol \""
                    + subprotocol
                    + "\", the client offered "
                    + ClientText.quoted(offered);
        }
        return null;
    }

    /**
     * The 101 answer, naming {@code subprotocol} if the client offered it (a browser fails the
     * socket otherwise).
     */
    public static ByteBuf accepted(ByteBufAllocator alloc, RequestHead head, String subprotocol) {
        StringBuilder b =
                new StringBuilder(192)
                        .append(
                                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ")
                        .append(accept(head.header("sec-websocket-key").strip()))
                        .append("\r\n");
        String offered = head.header("sec-websocket-protocol");
        if (offered != null && offers(offered, subprotocol))
            b.append("Sec-WebSocket-Protocol: ").append(subprotocol).append("\r\n");
        b.append("\r\n");
        ByteBuf out = alloc.buffer(b.length());
        out.writeCharSequence(b, StandardCharsets.ISO_8859_1);
        return out;
    }

    /** {@code Sec-WebSocket-Accept}: base64 of the SHA-1 of the key and the GUID. */
    public static String accept(String key) {
        try {
            byte[] sha1 =
                    MessageDigest.getInstance("SHA-1")
                            .digest((key + GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
    }

    private static boolean offers(String offered, String subprotocol) {
        for (String p : offered.split(",")) {
            if (p.strip().toLowerCase(Locale.ROOT).equals(subprotocol)) return true;
        }
        return false;
    }
}
