package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.groovecast.net.harbor.http.WebSocketHandshake;
import org.junit.jupiter.api.Test;

class WebcastHelloTest {
    @Test
    void azuraCastsHelloNamesTheMimeUserAndPassword() throws Exception {
        WebcastHello h =
                WebcastHello.parse(
                        "{\"type\":\"hello\",\"data\":{\"mime\":\"audio/webm;codecs=opus\","
                                + "\"audio\":{\"channels\":2,\"samplerate\":48000},\"user\":\"dj1\",\"password\":\"pw\"}}");
        assertEquals(new WebcastHello("audio/webm;codecs=opus", "dj1", "pw"), h);
        assertTrue(!h.toString().contains("pw"), "the password stays out of logs");
    }

    @Test
    void webcastJsSpecHelloWithoutCredentialsParses() throws Exception {
        // webcast.js's own example sends no credentials; the harbor then looks at the request's
        // Authorization
        assertEquals(
                new WebcastHello("audio/mpeg", null, null),
                WebcastHello.parse(
                        "{\"type\":\"hello\",\"data\":{\"mime\":\"audio/mpeg\",\"audio\":{\"bitrate\":128}}}"));
    }

    @Test
    void aFirstMessageThatIsNoHelloWithAMimeIsRefusedSayingWhy() {
        assertTrue(
                assertThrows(
                                WebcastHello.Invalid.class,
                                () -> WebcastHello.parse("{\"type\":\"metadata\",\"data\":{}}"))
                        .getMessage()
                        .contains("must be a hello"));
        assertTrue(
                assertThrows(
                                WebcastHello.Invalid.class,
                                () -> WebcastHello.parse("{\"type\":\"hello\",\"data\":{}}"))
                        .getMessage()
                        .contains("no mime"));
        assertTrue(
                assertThrows(WebcastHello.Invalid.class, () -> WebcastHello.parse("hello"))
                        .getMessage()
                        .contains("no JSON object"));
        assertTrue(
                assertThrows(WebcastHello.Invalid.class, () -> WebcastHello.parse("[1,2]"))
                        .getMessage()
                        .contains("no JSON object"));
        assertTrue(
                assertThrows(WebcastHello.Invalid.class, () -> WebcastHello.parse("{\"data\":{}}"))
                        .getMessage()
                        .contains("without a type"));
    }

    @Test
    void aMalformedHelloIsNeverQuotedSinceItMayHoldThePassword() {
        for (String bad :
                new String[] {
                    "{\"type\":\"hello\",\"data\":{\"password\":\"hunter2\"", // cut short: no JSON
                    "{\"type\":7,\"password\":\"hunter2\"}",
                    "{\"password\":\"hunter2\"}"
                }) {
            String why =
                    assertThrows(WebcastHello.Invalid.class, () -> WebcastHello.parse(bad))
                            .getMessage();
            assertTrue(!why.contains("hunter2"), why);
            assertTrue(why.contains(bad.length() + " characters"), why);
        }
    }

    @Test
    void metadataKeepsTextNumbersAndBooleansAndOtherTypesAreIgnored() throws Exception {
        assertEquals(
                Map.of("title", "Song", "artist", "Band", "year", "1999", "live", "true"),
                WebcastHello.metadata(
                        "{\"type\":\"metadata\",\"data\":{\"title\":\"Song\",\"artist\":\"Band\","
                                + "\"year\":1999,\"live\":true,\"cover\":{\"url\":\"x\"},\"none\":null}}"));
        assertNull(
                WebcastHello.metadata("{\"type\":\"chat\",\"data\":\"hi\"}"),
                "a type the protocol does not define is ignored");
        assertThrows(
                WebcastHello.Invalid.class,
                () -> WebcastHello.metadata("{\"type\":\"metadata\",\"data\":\"Song\"}"));
    }

    @Test
    void theHandshakeAnswersRfc6455sExampleKey() {
        assertEquals(
                "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
                WebSocketHandshake.accept("dGhlIHNhbXBsZSBub25jZQ=="));
    }
}
