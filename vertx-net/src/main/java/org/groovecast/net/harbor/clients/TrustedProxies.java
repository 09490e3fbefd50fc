package org.groovecast.net.harbor.clients;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The peers whose word on who their client is the harbor takes ({@code
 * settings.harbor.trustedProxies}): a reverse proxy or CDN in front of the station, by address or
 * CIDR range. From anyone else {@code X-Forwarded-For} and {@code Forwarded} are ignored: a client
 * could otherwise name any address it likes and walk past a ban or a per-address cap.
 */
public final class TrustedProxies {
    /** No proxy: every client is its socket's peer. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<CidrRange> ranges;

    private TrustedProxies(List<CidrRange> ranges) {
        this.ranges = ranges;
    }

    /**
     * The proxies {@code value} names: a list of addresses and CIDR ranges, or one text of them
     * separated by commas or spaces (as {@code --set harbor.trustedProxies=10.0.0.0/8,::1} gives
     * it); throws {@link IllegalArgumentException} naming the first entry that is neither.
     */
    public static TrustedProxies parse(Object value) {
        Collection<?> entries =
                value instanceof Collection<?> c
                        ? c
                        : List.of(String.valueOf(value).strip().split("[,\\s]+"));
        List<CidrRange> ranges = new ArrayList<>();
        for (Object e : entries) {
            String text = String.valueOf(e);
            if (text.isBlank() && !(value instanceof Collection<?>)) continue; // "" names none
            ranges.add(CidrRange.parse(text));
        }
        return ranges.isEmpty() ? NONE : new TrustedProxies(List.copyOf(ranges));
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** Whether {@code a} is one of the proxies. */
    public boolean trusts(InetAddress a) {
        if (ranges.isEmpty()) return false;
        byte[] bytes = a.getAddress();
        for (CidrRange r : ranges) if (r.contains(bytes)) return true;
        return false;
    }

    public List<CidrRange> ranges() {
        return ranges;
    }

    @Override
    public String toString() {
        return ranges.toString();
    }
}
