package org.groovecast.net.admission;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A mount's {@code deny:} list: client addresses and CIDR ranges ({@link AddressRanges}) and
 * User-Agent patterns ({@link AgentPatterns}), as the script gives them: {@code [addresses:
 * ['203.0.113.7', '198.51.100.0/24'], agents: ['*bot*', '/^curl\\//']]}, either key optional.
 */
public record DenyList(AddressRanges addresses, AgentPatterns agents) {
    public static final DenyList NONE = new DenyList(AddressRanges.NONE, AgentPatterns.NONE);

    /** What a client was refused for. */
    public enum Reason {
        ADDRESS,
        AGENT
    }

    /**
     * The list a script's {@code deny:} value gives (null or empty: none); throws {@link
     * IllegalArgumentException} saying what is wrong, the entry named.
     */
    public static DenyList of(Object value) {
        if (value == null) return NONE;
        if (!(value instanceof Map<?, ?> m))
            throw new IllegalArgumentException(
                    "expects [addresses: [...], agents: [...]], got "
                            + value.getClass().getSimpleName());
        for (Object k : m.keySet()) {
            if (!"addresses".equals(String.valueOf(k)) && !"agents".equals(String.valueOf(k)))
                throw new IllegalArgumentException("takes addresses: and agents:, not " + k + ":");
        }
        AddressRanges a = AddressRanges.of(texts(m.get("addresses"), "addresses"));
        AgentPatterns g = AgentPatterns.of(texts(m.get("agents"), "agents"));
        return a.isEmpty() && g.isEmpty() ? NONE : new DenyList(a, g);
    }

    /**
     * What is wrong with {@code value} as a {@code deny:} list, or null: the script compiler's
     * check of what a script writes.
     */
    public static String problem(Object value) {
        try {
            of(value);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static List<String> texts(Object v, String key) {
        if (v == null) return List.of();
        if (v instanceof CharSequence s) return List.of(s.toString()); // one entry
        if (!(v instanceof Iterable<?> list))
            throw new IllegalArgumentException(
                    key + ": expects a list of strings, got " + v.getClass().getSimpleName());
        List<String> out = new ArrayList<>();
        for (Object e : list) {
            if (!(e instanceof CharSequence s))
                throw new IllegalArgumentException(
                        key
                                + ": expects strings, got "
                                + (e == null ? "null" : e.getClass().getSimpleName()));
            out.add(s.toString());
        }
        return out;
    }

    public boolean isEmpty() {
        return addresses.isEmpty() && agents.isEmpty();
    }

    /**
     * Why {@code address} with {@code agent} (null: none sent) is refused, or null when it is not.
     */
    public Reason refuses(InetAddress address, String agent) {
        if (addresses.contains(address)) return Reason.ADDRESS;
        if (!agents.isEmpty() && agents.matches(agent)) return Reason.AGENT;
        return null;
    }
}
