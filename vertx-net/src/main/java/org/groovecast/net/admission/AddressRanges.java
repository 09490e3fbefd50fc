package org.groovecast.net.admission;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * A deny list's addresses and CIDR ranges as a sorted table of disjoint ranges, IPv4 and IPv6 each
 * their own: a lookup is a binary search (a 10,000-entry list is 14 steps), never a scan, and reads
 * only primitive arrays, so it allocates nothing beyond the client address's bytes. Overlapping and
 * adjacent entries are merged when the table is built.
 */
public final class AddressRanges {
    public static final AddressRanges NONE = of(List.of());

    private final long[] v4First;
    private final long[] v4Last;
    private final long[] v6FirstHi;
    private final long[] v6FirstLo;
    private final long[] v6LastHi;
    private final long[] v6LastLo;

    private AddressRanges(List<Cidr> v4, List<Cidr> v6) {
        v4First = new long[v4.size()];
        v4Last = new long[v4.size()];
        for (int i = 0; i < v4.size(); i++) {
            v4First[i] = v4.get(i).firstLo();
            v4Last[i] = v4.get(i).lastLo();
        }
        v6FirstHi = new long[v6.size()];
        v6FirstLo = new long[v6.size()];
        v6LastHi = new long[v6.size()];
        v6LastLo = new long[v6.size()];
        for (int i = 0; i < v6.size(); i++) {
            Cidr c = v6.get(i);
            v6FirstHi[i] = c.firstHi();
            v6FirstLo[i] = c.firstLo();
            v6LastHi[i] = c.lastHi();
            v6LastLo[i] = c.lastLo();
        }
    }

    /**
     * The table of {@code entries} (addresses or CIDR ranges); throws {@link
     * IllegalArgumentException} naming the first bad one and what is wrong with it.
     */
    public static AddressRanges of(Collection<String> entries) {
        List<Cidr> v4 = new ArrayList<>();
        List<Cidr> v6 = new ArrayList<>();
        for (String e : entries) {
            Cidr c = Cidr.parse(e);
            (c.v6() ? v6 : v4).add(c);
        }
        return new AddressRanges(merged(v4), merged(v6));
    }

    /** Sorted by first address, overlapping or adjacent ranges joined. */
    private static List<Cidr> merged(List<Cidr> ranges) {
        List<Cidr> sorted = new ArrayList<>(ranges);
        sorted.sort(
                Comparator.comparing(Cidr::firstHi, Long::compareUnsigned)
                        .thenComparing(Cidr::firstLo, Long::compareUnsigned));
        List<Cidr> out = new ArrayList<>();
        for (Cidr c : sorted) {
            if (!out.isEmpty()) {
                Cidr last = out.getLast();
                if (reaches(last, c)) {
                    if (compare(c.lastHi(), c.lastLo(), last.lastHi(), last.lastLo()) > 0)
                        out.set(
                                out.size() - 1,
                                new Cidr(
                                        c.v6(),
                                        last.firstHi(),
                                        last.firstLo(),
                                        c.lastHi(),
                                        c.lastLo()));
                    continue;
                }
            }
            out.add(c);
        }
        return out;
    }

    /**
     * Whether {@code next} (starting at or after {@code last}) overlaps it or follows it at once.
     */
    private static boolean reaches(Cidr last, Cidr next) {
        if (compare(next.firstHi(), next.firstLo(), last.lastHi(), last.lastLo()) <= 0) return true;
        // last + 1 == next.first, with the carry into the high half
        long lo = last.lastLo() + 1;
        long hi = lo == 0 ? last.lastHi() + 1 : last.lastHi();
        if (!last.v6() && lo > 0xffff_ffffL) return false;
        return hi == next.firstHi() && lo == next.firstLo();
    }

    private static int compare(long aHi, long aLo, long bHi, long bLo) {
        int c = Long.compareUnsigned(aHi, bHi);
        return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
    }

    /** Disjoint ranges in the table (after merging). */
    public int ranges() {
        return v4First.length + v6FirstHi.length;
    }

    public boolean isEmpty() {
        return ranges() == 0;
    }

    /** Whether {@code a} falls in one of the ranges. */
    public boolean contains(InetAddress a) {
        if (isEmpty()) return false;
        byte[] b = a.getAddress(); // a copy: the one allocation, what reading the address needs
        if (a instanceof Inet4Address) return containsV4(Cidr.bits(b, 0, 4));
        return containsV6(Cidr.bits(b, 0, 8), Cidr.bits(b, 8, 16));
    }

    /** {@code a}: an IPv4 address as an unsigned 32-bit number. */
    boolean containsV4(long a) {
        int lo = 0;
        int hi = v4First.length - 1;
        while (lo <= hi) { // the last range starting at or before a
            int mid = (lo + hi) >>> 1;
            if (v4First[mid] <= a) lo = mid + 1;
            else hi = mid - 1;
        }
        return hi >= 0 && a <= v4Last[hi];
    }

    boolean containsV6(long aHi, long aLo) {
        if (aHi == 0 && aLo >>> 32 == 0xffffL) return containsV4(aLo & 0xffff_ffffL); // mapped
        int lo = 0;
        int hi = v6FirstHi.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(v6FirstHi[mid], v6FirstLo[mid], aHi, aLo) <= 0) lo = mid + 1;
            else hi = mid - 1;
        }
        return hi >= 0 && compare(aHi, aLo, v6LastHi[hi], v6LastLo[hi]) <= 0;
    }
}
