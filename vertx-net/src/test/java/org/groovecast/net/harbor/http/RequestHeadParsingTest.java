package org.groovecast.net.harbor.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestHeadParsingTest {
    private static RequestHead parse(String head) throws RequestHead.Malformed {
        ByteBuf b = Unpooled.copiedBuffer(head, StandardCharsets.ISO_8859_1);
        return RequestHead.parse(b, 0, b.readableBytes());
    }

    @Test
    void optionsMayTargetTheServerAsAWhole() throws Exception {
        RequestHead h =
                parse(
                        "OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: TLS/1.0, HTTP/1.1");
        assertEquals("OPTIONS", h.method());
        assertEquals("*", h.target());
        assertEquals("*", h.path());
        assertThrows(RequestHead.Malformed.class, () -> parse("GET * HTTP/1.1"));
        assertThrows(RequestHead.Malformed.class, () -> parse("SOURCE * HTTP/1.0"));
    }

    @Test
    void controlCharactersInThePathAreRefused() {
        for (String target :
                new String[] {"/static/a%00b", "/a%0d%0aSet-Cookie:x", "/x%7f", "/a\u0001b"}) {
            var e =
                    assertThrows(
                            RequestHead.Malformed.class,
                            () -> parse("GET " + target + " HTTP/1.1"),
                            target);
            assertEquals(
                    target.contains("%") ? "control character in the path" : "bad target",
                    e.getMessage());
        }
    }

    @Test
    void pathsAreDecodedOnce() throws Exception {
        assertEquals("/files/%2e%2e/x", parse("GET /files/%252e%252e/x HTTP/1.1").path());
        assertEquals("/files/../x", parse("GET /files/%2E%2E%2Fx HTTP/1.1").path());
    }

    @Test
    void formBodiesReadAsQueries() throws Exception {
        assertEquals(
                Map.of("mode", "updinfo", "mount", "/live", "song", "A - B"),
                RequestHead.form("mode=updinfo&mount=%2flive&song=A%20%2d%20B"));
    }
}
