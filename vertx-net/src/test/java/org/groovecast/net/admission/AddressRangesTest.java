package org.groovecast.net.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A deny list's addresses: entries read strictly (a mistyped range is refused, never widened), the
 * table merged and searched, IPv4, IPv6 and IPv4-mapped alike, checked against a plain scan of
 * 10,000 random ranges, and a lookup's allocation.
 */
class AddressRangesTest {
    private static InetAddress ip(String s) {
        return InetAddress.ofLiteral(s);
    }

    @Test
    void addressesAndRangesOfBothFamilies() {
        AddressRanges t =
                AddressRanges.of(
                        List.of(
                                "203.0.113.7",
                                "198.51.100.0/24",
                                "10.0.0.0/8",
                                "2001:db8::/32",
                                "2001:db9::1",
                                " 192.0.2.128/25 "));
        for (String in :
                List.of(
                        "203.0.113.7",
                        "198.51.100.0",
                        "198.51.100.255",
                        "10.255.255.255",
                        "2001:db8::",
                        "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
                        "2001:db9::1",
                        "192.0.2.200",
                        "::ffff:10.1.2.3")) assertTrue(t.contains(ip(in)), in);
        for (String out :
                List.of(
                        "203.0.113.6",
                        "203.0.113.8",
                        "198.51.101.0",
                        "11.0.0.0",
                        "9.255.255.255",
                        "2001:db7:ffff::",
                        "2001:db9::2",
                        "192.0.2.127",
                        "::1",
                        "127.0.0.1")) assertFalse(t.contains(ip(out)), out);
    }

    @Test
    void mappedEntriesAreTheirIpv4RangeAndEverythingCanBeDenied() {
        AddressRanges mapped = AddressRanges.of(List.of("::ffff:192.0.2.0/120"));
        assertTrue(mapped.contains(ip("192.0.2.9")));
        assertFalse(mapped.contains(ip("192.0.3.9")));
        AddressRanges all = AddressRanges.of(List.of("0.0.0.0/0", "::/0"));
        assertTrue(all.contains(ip("255.255.255.255")));
        assertTrue(all.contains(ip("0.0.0.0")));
        assertTrue(all.contains(ip("ffff::1")));
        assertFalse(AddressRanges.NONE.contains(ip("1.2.3.4")));
    }

    @Test
    void overlappingAndAdjacentEntriesMerge() {
        AddressRanges t =
                AddressRanges.of(
                        List.of(
                                "10.0.0.0/24",
                                "10.0.1.0/24",
                                "10.0.0.128/25",
                                "10.0.0.5",
                                "10.0.3.0/24",
                                "2001:db8::/64",
                                "2001:db8:0:1::/64"));
        assertEquals(3, t.ranges(), "10.0.0.0-10.0.1.255, 10.0.3.0/24, 2001:db8::/63");
        assertTrue(t.contains(ip("10.0.1.77")));
        assertFalse(t.contains(ip("10.0.2.0")));
        assertTrue(t.contains(ip("2001:db8:0:1:ffff::")));
    }

    @Test
    void malformedEntriesAreRefusedSayingWhy() {
        for (String[] bad :
                new String[][] {
                    {"10.0.0.0/33", "'10.0.0.0/33' has prefix length 33; it takes 0 to 32"},
                    {
                        "10.0.0.1/8",
                        "'10.0.0.1/8' has address bits set past its /8 prefix; write the range's first address"
                    },
                    {
                        "256.1.1.1",
                        "'256.1.1.1' is no address or CIDR range (IPv4: four numbers 0 to 255)"
                    },
                    {"10.1", "'10.1' is no address or CIDR range (IPv4: four numbers 0 to 255)"},
                    {
                        "010.0.0.1",
                        "'010.0.0.1' is no address or CIDR range (IPv4: four numbers 0 to 255)"
                    },
                    {"10.0.0.0/", "'10.0.0.0/' has no prefix length after its /"},
                    {"10.0.0.0/x", "'10.0.0.0/x' has no prefix length after its /"},
                    {
                        "example.com",
                        "'example.com' is no address or CIDR range (IPv4: four numbers 0 to 255)"
                    },
                    {"2001:db8::/129", "'2001:db8::/129' has prefix length 129; it takes 0 to 128"},
                    {"2001:zz8::", "'2001:zz8::' is no IPv6 address or range"},
                    {
                        "fe80::1%eth0",
                        "'fe80::1%eth0' is no address or CIDR range (write the IPv6 address bare, no zone)"
                    },
                    {"", "an empty entry is no address"},
                }) {
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> AddressRanges.of(List.of("1.2.3.4", bad[0])),
                            bad[0]);
            assertEquals(bad[1], e.getMessage());
        }
    }

    @Test
    void tenThousandRandomRangesAnswerAsAScanDoes() {
        Random r = new Random(28);
        List<String> entries = new ArrayList<>();
        List<long[]> v4 = new ArrayList<>();
        List<long[]> v6 = new ArrayList<>(); // the top 64 bits only: ranges of /16 to /64
        for (int i = 0; i < 10_000; i++) {
            if (i % 5 == 0) {
                int prefix = 16 + r.nextInt(49);
                long hi = r.nextLong() & (prefix == 64 ? -1L : -1L << (64 - prefix));
                v6.add(new long[] {hi, hi | (prefix == 64 ? 0 : ~(-1L << (64 - prefix)))});
                entries.add(hex(hi) + "::/" + prefix);
            } else {
                int prefix = 8 + r.nextInt(25);
                long mask = (0xffff_ffffL << (32 - prefix)) & 0xffff_ffffL;
                long a = r.nextLong() & mask;
                v4.add(new long[] {a, a | (~mask & 0xffff_ffffL)});
                entries.add(dotted(a) + "/" + prefix);
            }
        }
        AddressRanges t = AddressRanges.of(entries);
        int hits = 0;
        for (int i = 0; i < 20_000; i++) {
            long a = r.nextLong() & 0xffff_ffffL;
            boolean scan = v4.stream().anyMatch(x -> x[0] <= a && a <= x[1]);
            assertEquals(scan, t.contains(ip(dotted(a))), dotted(a));
            if (scan) hits++;
            long hi = i % 2 == 0 ? v6.get(i % v6.size())[0] + r.nextInt(3) - 1 : r.nextLong();
            boolean scan6 =
                    v6.stream()
                            .anyMatch(
                                    x ->
                                            Long.compareUnsigned(x[0], hi) <= 0
                                                    && Long.compareUnsigned(hi, x[1]) <= 0);
            assertEquals(scan6, t.contains(ip(hex(hi) + "::5")), hex(hi));
        }
        assertTrue(hits > 100, "the random ranges cover some of the addresses: " + hits);
    }

    /**
     * A lookup reads the client address's bytes (a copy Java makes) and allocates nothing else,
     * whatever the table's size: no scan, no boxing.
     */
    @Tag("allocation")
    @Test
    void aLookupAllocatesOnlyTheAddressBytes() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Random r = new Random(5);
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) entries.add(dotted(r.nextLong() & 0xffff_ff00L) + "/24");
        AddressRanges t = AddressRanges.of(entries);
        InetAddress v4 = ip("198.51.100.7");
        InetAddress v6 = ip("2001:db8::7");
        int n = 200_000;
        long perLookup = 0;
        int found = 0;
        for (int round = 0; round < 20; round++) { // rounds for the JIT
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) {
                if (t.contains(v4)) found++;
                if (t.contains(v6)) found++;
            }
            perLookup = (threads.getCurrentThreadAllocatedBytes() - before) / (2L * n);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) if (t.containsV4(0xc633_6407L)) found++;
        long raw = (threads.getCurrentThreadAllocatedBytes() - before) / n;
        System.out.printf(
                "AddressRanges, 10,000 entries: %d bytes allocated per lookup of an InetAddress"
                        + " (its bytes' copy), %d per lookup of the number (%d found)%n",
                perLookup, raw, found);
        assertTrue(perLookup <= 32, perLookup + " bytes per lookup");
        assertEquals(0, raw, "the search itself allocates nothing");
    }

    private static String dotted(long a) {
        return (a >>> 24 & 255) + "." + (a >>> 16 & 255) + "." + (a >>> 8 & 255) + "." + (a & 255);
    }

    private static String hex(long hi) {
        return String.format(
                "%x:%x:%x:%x",
                hi >>> 48 & 0xffff, hi >>> 32 & 0xffff, hi >>> 16 & 0xffff, hi & 0xffff);
    }
}
