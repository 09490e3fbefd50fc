package org.groovecast.net.harbor.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A handler's reply encoded off the loop: text becomes its UTF-8 bytes, nothing else changes. */
class HttpReplyTest {
    @Test
    void textBecomesItsUtf8BytesWithStatusTypeAndHeadersKept() {
        HttpReply r = new HttpReply(201, "text/html", Map.of("X-A", "1"), "h\u00e9llo \u20ac");

        HttpReply e = r.encoded();

        assertArrayEquals("h\u00e9llo \u20ac".getBytes(StandardCharsets.UTF_8), (byte[]) e.data());
        assertEquals(10, ((byte[]) e.data()).length, "two bytes for é, three for €");
        assertEquals(201, e.status());
        assertEquals("text/html", e.contentType());
        assertEquals(Map.of("X-A", "1"), e.headers());
    }

    @Test
    void anyOtherValueIsSentAsItsTextAndNoBodyAsNoBytes() {
        StringBuilder built = new StringBuilder("built");
        assertArrayEquals(
                "built".getBytes(StandardCharsets.UTF_8), (byte[]) reply(built).encoded().data());
        assertArrayEquals(
                "42".getBytes(StandardCharsets.UTF_8), (byte[]) reply(42).encoded().data());
        assertEquals(0, ((byte[]) reply(null).encoded().data()).length);
    }

    @Test
    void bytesFilesAndStreamsAreLeftAsTheyAre() {
        for (Object data :
                new Object[] {
                    new byte[] {1, 2}, Path.of("/tmp/x"), new ByteArrayInputStream(new byte[0])
                }) {
            HttpReply r = reply(data);
            assertSame(r, r.encoded(), String.valueOf(data));
        }
    }

    private static HttpReply reply(Object data) {
        return new HttpReply(200, null, Map.of(), data);
    }
}
