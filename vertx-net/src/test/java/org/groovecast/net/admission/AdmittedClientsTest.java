package org.groovecast.net.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** HLS clients as the cap counts them: an address and agent, present until idle too long. */
class AdmittedClientsTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aClientIsCountedOnceWhileItKeepsAsking() {
        AdmittedClients c = new AdmittedClients();
        String a = AdmittedClients.key("192.0.2.1", "VLC");
        String b = AdmittedClients.key("192.0.2.1", "hls.js");
        long t = 1_000 * S;
        AdmittedClients.Client first = c.start(a, t, 2);
        assertNotNull(first);
        for (int i = 1; i <= 20; i++) assertSame(first, c.find(a, t + i * 2 * S), "request " + i);
        assertEquals(t, first.start(), "its time runs from its first request");
        assertNotNull(c.start(b, t + 41 * S, 2), "another agent is another listener");
        assertTrue(c.full(t + 41 * S, 2));
        assertNull(c.start(AdmittedClients.key("192.0.2.2", "VLC"), t + 41 * S, 2), "full");
        assertEquals(2, c.present(t + 41 * S));
    }

    @Test
    void aClientIdleTooLongIsGoneAndItsPlaceFree() {
        AdmittedClients c = new AdmittedClients();
        String a = AdmittedClients.key("192.0.2.1", null);
        long t = 5 * S;
        AdmittedClients.Client first = c.start(a, t, 1);
        long later = t + AdmittedClients.IDLE_NANOS + S;
        assertNull(c.find(a, later));
        assertFalse(c.full(later, 1));
        AdmittedClients.Client again = c.start(AdmittedClients.key("192.0.2.9", null), later, 1);
        assertNotNull(again, "the gone client's place is free");
        assertEquals(1, c.present(later));
        assertFalse(first == again);
    }
}
