package org.groovecast.net.harbor.clients;

import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * An address range as a script writes it: {@code 10.0.0.0/8}, {@code 2001:db8::/32}, or one address
 * ({@code 192.0.2.7}, a range of one). Only IP literals: a name is refused rather than looked up,
 * so that parsing a script never waits on DNS.
 *
 * @param network the range's first address, its host bits cleared
 * @param prefix the bits of {@code network} an address must share to be in the range
 */
public record CidrRange(byte[] network, int prefix) {
    /**
     * The range {@code text} names; throws {@link IllegalArgumentException} saying what is wrong
     * with it.
     */
    public static CidrRange parse(String text) {
        String t = text.strip();
        int slash = t.indexOf('/');
        String host = slash < 0 ? t : t.substring(0, slash);
        byte[] address = literal(host);
        if (address == null) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not an IP address or a CIDR range such as 10.0.0.0/8");
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String p = t.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException(
                        "'" + text + "' is not a CIDR range: the prefix after / must be a number");
            }
            prefix = Integer.parseInt(p);
            if (prefix > bits) {
                throw new IllegalArgumentException(
                        "'"
                                + text
                                + "' is not a CIDR range: an "
                                + (bits == 32 ? "IPv4" : "IPv6")
                                + " prefix is 0 to "
                                + bits);
            }
        }
        // 10.1.2.3/8 means 10.0.0.0/8, as nginx and Icecast read it.
        for (int i = 0; i < address.length; i++) {
            int keep = Math.clamp(prefix - i * 8, 0, 8);
            address[i] &= (byte) (0xff00 >> keep);
        }
        return new CidrRange(address, prefix);
    }

    /** Whether {@code a} is in the range; an IPv4 address is never in an IPv6 range, nor back. */
    public boolean contains(InetAddress a) {
        return contains(a.getAddress());
    }

    boolean contains(byte[] a) {
        if (a.length != network.length) return false;
        int whole = prefix / 8;
        for (int i = 0; i < whole; i++) if (a[i] != network[i]) return false;
        int rest = prefix % 8;
        if (rest == 0) return true;
        int mask = 0xff00 >> rest & 0xff;
        return (a[whole] & mask) == (network[whole] & 0xff);
    }

    /**
     * The bytes of the IP literal {@code text} (IPv4, or IPv6 with or without brackets); null if it
     * is none.
     */
    public static byte[] literal(String text) {
        String t = text;
        if (t.length() > 2 && t.charAt(0) == '[' && t.charAt(t.length() - 1) == ']')
            t = t.substring(1, t.length() - 1);
        byte[] b = NetUtil.createByteArrayFromIpAddressString(t);
        if (b == null) return null;
        // ::ffff:192.0.2.7 is the IPv4 address, as Java's InetAddress takes it.
        if (b.length == 16 && isMappedV4(b)) return Arrays.copyOfRange(b, 12, 16);
        return b;
    }

    private static boolean isMappedV4(byte[] b) {
        for (int i = 0; i < 10; i++) if (b[i] != 0) return false;
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CidrRange r && prefix == r.prefix && Arrays.equals(network, r.network);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(network) * 31 + prefix;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e); // a length of 4 or 16 is always an address
        }
    }
}
