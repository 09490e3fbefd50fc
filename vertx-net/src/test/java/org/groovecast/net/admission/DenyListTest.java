package org.groovecast.net.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code deny:} as a script writes it: its shape, what it refuses, and what is wrong with it. */
class DenyListTest {
    private static final InetAddress HOME = InetAddress.ofLiteral("192.0.2.1");
    private static final InetAddress BANNED = InetAddress.ofLiteral("198.51.100.9");

    @Test
    void refusesByAddressThenByAgent() {
        DenyList d =
                DenyList.of(
                        Map.of(
                                "addresses", List.of("198.51.100.0/24"),
                                "agents", List.of("*bot*")));
        assertEquals(DenyList.Reason.ADDRESS, d.refuses(BANNED, "VLC"));
        assertEquals(DenyList.Reason.ADDRESS, d.refuses(BANNED, "a bot"));
        assertEquals(DenyList.Reason.AGENT, d.refuses(HOME, "SomeBot/1"));
        assertNull(d.refuses(HOME, "VLC"));
        assertNull(d.refuses(HOME, null));
    }

    @Test
    void eitherKeyAloneOrOneTextAndNothingIsNone() {
        assertEquals(
                DenyList.Reason.AGENT,
                DenyList.of(Map.of("agents", "curl/*")).refuses(HOME, "curl/8"));
        assertEquals(
                DenyList.Reason.ADDRESS,
                DenyList.of(Map.of("addresses", "198.51.100.9")).refuses(BANNED, null));
        assertSame(DenyList.NONE, DenyList.of(Map.of()));
        assertSame(DenyList.NONE, DenyList.of(null));
        assertSame(DenyList.NONE, DenyList.of(Map.of("addresses", List.of())));
    }

    @Test
    void problemsNameTheEntry() {
        assertNull(DenyList.problem(Map.of("addresses", List.of("10.0.0.0/8"))));
        assertEquals(
                "'10.0.0.0/33' has prefix length 33; it takes 0 to 32",
                DenyList.problem(Map.of("addresses", List.of("10.0.0.0/8", "10.0.0.0/33"))));
        assertEquals(
                "agent pattern '/[a/' is no regular expression: Unclosed character class near index 1",
                DenyList.problem(Map.of("agents", List.of("/[a/"))));
        assertEquals(
                "takes addresses: and agents:, not ips:", DenyList.problem(Map.of("ips", "x")));
        assertEquals(
                "addresses: expects strings, got Integer",
                DenyList.problem(Map.of("addresses", List.of(10))));
        assertEquals(
                "expects [addresses: [...], agents: [...]], got String",
                DenyList.problem("10.0.0.0/8"));
    }
}
