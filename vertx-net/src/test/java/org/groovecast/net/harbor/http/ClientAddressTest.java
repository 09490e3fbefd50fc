package org.groovecast.net.harbor.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.groovecast.net.harbor.clients.CidrRange;
import org.groovecast.net.harbor.clients.TrustedProxies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Who a request comes from behind proxies: only a trusted peer's forwarding headers are read. */
class ClientAddressTest {
    private static final TrustedProxies PROXIES =
            TrustedProxies.parse(List.of("10.0.0.0/8", "192.0.2.1", "2001:db8:ffff::/48"));

    private static InetAddress ip(String literal) {
        return ClientAddress.address(literal);
    }

    private static String client(String peer, String xff, String forwarded) {
        return ClientAddress.of(ip(peer), xff, forwarded, PROXIES).getHostAddress();
    }

    @Test
    void anUntrustedPeerIsTheClientWhateverItClaims() {
        assertEquals("198.51.100.9", client("198.51.100.9", "203.0.113.7", null));
        assertEquals("198.51.100.9", client("198.51.100.9", null, "for=203.0.113.7"));
        assertEquals(
                "198.51.100.9",
                ClientAddress.of(ip("198.51.100.9"), "203.0.113.7", null, TrustedProxies.NONE)
                        .getHostAddress());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // the address the proxy saw
                "203.0.113.7 | 203.0.113.7",
                // the client's own claim at the left is ignored: the right-most untrusted address
                "6.6.6.6, 203.0.113.7 | 203.0.113.7",
                // a chain of trusted proxies is walked through
                "6.6.6.6, 203.0.113.7, 10.1.2.3, 192.0.2.1 | 203.0.113.7",
                // every hop trusted: the left-most
                "10.9.9.9, 10.1.2.3 | 10.9.9.9",
                // garbage ends the walk at the last address believed
                "203.0.113.7, not-an-address, 10.1.2.3 | 10.1.2.3",
                "203.0.113.7, , 10.1.2.3 | 10.1.2.3",
                // a name is never looked up
                "localhost | 10.0.0.1",
                // ports, brackets and IPv6
                "203.0.113.7:4711 | 203.0.113.7",
                "[2001:db8::7]:4711 | 2001:db8:0:0:0:0:0:7",
                "2001:db8::7 | 2001:db8:0:0:0:0:0:7",
                "::ffff:203.0.113.7 | 203.0.113.7",
            })
    void xForwardedForNamesTheRightMostUntrustedAddress(String xff, String expected) {
        assertEquals(expected, client("10.0.0.1", xff, null));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "for=203.0.113.7;proto=http;by=10.0.0.1 | 203.0.113.7",
                "For=\"[2001:db8:cafe::17]:4711\" | 2001:db8:cafe:0:0:0:0:17",
                "for=6.6.6.6, for=203.0.113.7;proto=https, for=10.2.2.2 | 203.0.113.7",
                "for=\"203.0.113.7:80\";by=\"[2001:db8:ffff::1]\" | 203.0.113.7",
                // unknown and obfuscated names are no address: the walk ends before them
                "for=unknown, for=10.2.2.2 | 10.2.2.2",
                "for=_hidden | 10.0.0.1",
                "proto=https | 10.0.0.1",
            })
    void forwardedNamesTheClientAsRfc7239Says(String forwarded, String expected) {
        assertEquals(expected, client("10.0.0.1", null, forwarded));
    }

    @Test
    void xForwardedForIsPreferredOverForwarded() {
        assertEquals("203.0.113.7", client("10.0.0.1", "203.0.113.7", "for=6.6.6.6"));
    }

    @Test
    void aLongChainIsWalkedOnce() {
        StringBuilder xff = new StringBuilder("203.0.113.7");
        for (int i = 0; i < 2000; i++)
            xff.append(", 10.0.").append(i / 250).append('.').append(i % 250);
        assertEquals("203.0.113.7", client("10.0.0.1", xff.toString(), null));
    }

    @Test
    void rangesParseAndMatchByTheirPrefix() {
        CidrRange r = CidrRange.parse("10.1.2.3/8");
        assertEquals("10.0.0.0/8", r.toString());
        assertTrue(r.contains(ip("10.255.0.1")));
        assertFalse(r.contains(ip("11.0.0.1")));
        assertFalse(r.contains(ip("::a01:1")), "no IPv4 range holds an IPv6 address");
        CidrRange odd = CidrRange.parse("192.0.2.128/25");
        assertTrue(odd.contains(ip("192.0.2.200")));
        assertFalse(odd.contains(ip("192.0.2.127")));
        assertTrue(CidrRange.parse("0.0.0.0/0").contains(ip("8.8.8.8")));
        assertTrue(CidrRange.parse("2001:db8::/32").contains(ip("2001:db8:1::1")));
        assertFalse(CidrRange.parse("2001:db8::/32").contains(ip("2001:db9::1")));
        assertEquals("192.0.2.7/32", CidrRange.parse(" 192.0.2.7 ").toString());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "10.0.0.0/33 | '10.0.0.0/33' is not a CIDR range: an IPv4 prefix is 0 to 32",
                "2001:db8::/129 | '2001:db8::/129' is not a CIDR range: an IPv6 prefix is 0 to 128",
                "10.0.0/8 | '10.0.0/8' is not an IP address or a CIDR range such as 10.0.0.0/8",
                "example.com | 'example.com' is not an IP address or a CIDR range such as 10.0.0.0/8",
                "10.0.0.0/ | '10.0.0.0/' is not a CIDR range: the prefix after / must be a number",
                "10.0.0.0/-1 | '10.0.0.0/-1' is not a CIDR range: the prefix after / must be a number",
            })
    void aMalformedRangeSaysWhatIsWrong(String text, String message) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> CidrRange.parse(text));
        assertEquals(message, e.getMessage());
    }

    @Test
    void theCommandLinesTextNamesSeveral() {
        TrustedProxies p = TrustedProxies.parse("10.0.0.0/8, ::1 192.0.2.1");
        assertEquals(3, p.ranges().size());
        assertTrue(p.trusts(ip("::1")));
        assertTrue(TrustedProxies.parse("").isEmpty());
        assertNull(ClientAddress.address("10.0.0.1:99999999"));
    }
}
