package org.groovecast.net.harbor.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClientTextTest {
    @Test
    void quotesAndEscapesWhatCouldEndOrForgeALine() {
        assertEquals("-", ClientText.quoted(null));
        assertEquals("\"mpv 0.35\"", ClientText.quoted("mpv 0.35"));
        assertEquals("\"a\\\"b\\\\c\"", ClientText.quoted("a\"b\\c"));
        assertEquals(
                "\"a\\x0d\\x0ab\\x1b[31m\\x7f\\x85\\u2028\"",
                ClientText.quoted("a\r\nb\u001b[31m\u007f\u0085\u2028"));
        assertEquals("\"Caf\u00e9\"", ClientText.quoted("Caf\u00e9"));
    }

    @Test
    void cutsALongAgentShort() {
        String q = ClientText.quoted("x".repeat(20_000));
        assertEquals("\"" + "x".repeat(ClientText.MAX) + "\"...", q);
    }
}
