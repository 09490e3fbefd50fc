package org.groovecast.net.admission;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * One entry of a deny list, an address ({@code 203.0.113.7}, {@code 2001:db8::1}) or a CIDR range
 * ({@code 198.51.100.0/24}, {@code 2001:db8::/32}), as the first and last address it covers: an
 * IPv4 range in the low 32 bits of {@code firstLo} and {@code lastLo}, an IPv6 one as two 64-bit
 * halves each, compared unsigned. An IPv4-mapped IPv6 entry ({@code ::ffff:192.0.2.0/120}) is the
 * IPv4 range it maps, since a client's address comes as IPv4 either way.
 */
record Cidr(boolean v6, long firstHi, long firstLo, long lastHi, long lastLo) {
    /**
     * Reads {@code text}; throws {@link IllegalArgumentException} saying what is wrong. Strict:
     * IPv4 in four decimal parts without leading zeros (a {@code 010} could be meant octal), no
     * zone, and a range whose address has bits set past its prefix is refused rather than widened,
     * since a mistyped prefix ({@code 10.0.0.1/8}) would ban far more than was meant.
     */
    static Cidr parse(String text) {
        String s = text.strip();
        if (s.isEmpty()) throw new IllegalArgumentException("an empty entry is no address");
        int slash = s.indexOf('/');
        String address = slash < 0 ? s : s.substring(0, slash);
        boolean v6 = address.indexOf(':') >= 0;
        int max = v6 ? 128 : 32;
        int prefix = slash < 0 ? max : prefix(s.substring(slash + 1), max, s);
        if (!v6) {
            long a = ipv4(address, s);
            return v4Range(a, prefix, s);
        }
        if (address.indexOf('%') >= 0 || address.indexOf('[') >= 0)
            throw new IllegalArgumentException(
                    "'"
                            + s
                            + "' is no address or CIDR range (write the IPv6 address bare, no zone)");
        InetAddress parsed;
        try {
            parsed = InetAddress.ofLiteral(address);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + s + "' is no IPv6 address or range");
        }
        byte[] b = parsed.getAddress();
        if (parsed instanceof Inet4Address) { // ::ffff:a.b.c.d, which Java reads as IPv4
            if (prefix < 96)
                throw new IllegalArgumentException(
                        "'" + s + "' reaches past the IPv4-mapped range ::ffff:0:0/96");
            return v4Range(bits(b, 0, 4), prefix - 96, s);
        }
        long hi = bits(b, 0, 8);
        long lo = bits(b, 8, 16);
        long maskHi = prefix >= 64 ? -1L : prefix == 0 ? 0 : -1L << (64 - prefix);
        long maskLo = prefix <= 64 ? 0 : prefix == 128 ? -1L : -1L << (128 - prefix);
        if ((hi & ~maskHi) != 0 || (lo & ~maskLo) != 0)
            throw new IllegalArgumentException(hostBits(s, prefix));
        if (hi == 0 && lo >>> 32 == 0xffffL && prefix >= 96) // mapped, written in hex
        return v4Range(lo & 0xffff_ffffL, prefix - 96, s);
        return new Cidr(true, hi, lo, hi | ~maskHi, lo | ~maskLo);
    }

    private static Cidr v4Range(long a, int prefix, String s) {
        long mask = prefix == 0 ? 0 : (0xffff_ffffL << (32 - prefix)) & 0xffff_ffffL;
        if ((a & ~mask & 0xffff_ffffL) != 0)
            throw new IllegalArgumentException(hostBits(s, prefix));
        return new Cidr(false, 0, a, 0, a | (~mask & 0xffff_ffffL));
    }

    private static String hostBits(String s, int prefix) {
        return "'"
                + s
                + "' has address bits set past its /"
                + prefix
                + " prefix; write the range's first address";
    }

    private static int prefix(String p, int max, String s) {
        if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9'))
            throw new IllegalArgumentException("'" + s + "' has no prefix length after its /");
        int n = Integer.parseInt(p);
        if (n > max || p.length() > 1 && p.charAt(0) == '0')
            throw new IllegalArgumentException(
                    "'" + s + "' has prefix length " + p + "; it takes 0 to " + max);
        return n;
    }

    /** A dotted quad as an unsigned 32-bit number. */
    private static long ipv4(String a, String s) {
        long v = 0;
        int parts = 0;
        int at = 0;
        while (true) {
            int end = a.indexOf('.', at);
            if (end < 0) end = a.length();
            String part = a.substring(at, end);
            if (part.isEmpty()
                    || part.length() > 3
                    || !part.chars().allMatch(c -> c >= '0' && c <= '9')
                    || part.length() > 1 && part.charAt(0) == '0'
                    || Integer.parseInt(part) > 255
                    || ++parts > 4)
                throw new IllegalArgumentException(
                        "'" + s + "' is no address or CIDR range (IPv4: four numbers 0 to 255)");
            v = v << 8 | Integer.parseInt(part);
            if (end == a.length()) break;
            at = end + 1;
        }
        if (parts != 4)
            throw new IllegalArgumentException(
                    "'" + s + "' is no address or CIDR range (IPv4: four numbers 0 to 255)");
        return v;
    }

    /** Bytes {@code from} to {@code to} of {@code b}, big-endian. */
    static long bits(byte[] b, int from, int to) {
        long v = 0;
        for (int i = from; i < to; i++) v = v << 8 | (b[i] & 0xff);
        return v;
    }
}
