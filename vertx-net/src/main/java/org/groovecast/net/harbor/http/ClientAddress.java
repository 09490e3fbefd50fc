package org.groovecast.net.harbor.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.net.harbor.clients.CidrRange;
import org.groovecast.net.harbor.clients.TrustedProxies;

/**
 * Who a request comes from: its socket's peer, or, when that peer is a trusted proxy ({@link
 * TrustedProxies}), the client the proxy names. This is the one address the harbor's request path
 * reads ({@code HarborConnection#address()}): logs, sessions, connection caps, failed logins and
 * bans all see it.
 *
 * <p>The proxies' chain is read from the right, the hop nearest to us first: each address a trusted
 * proxy added is believed, and the first one that is not a trusted proxy is the client (the
 * right-most untrusted address); anything further left is the client's own say and ignored. {@code
 * X-Forwarded-For} is read when present, else {@code Forwarded} (RFC 7239, its {@code for=}
 * parameters): a proxy must set or strip the header it uses, since the other one passes through as
 * the client sent it. An entry that is not an IP literal ({@code unknown}, an obfuscated name,
 * garbage) ends the walk at the last address believed.
 */
public final class ClientAddress {
    private ClientAddress() {}

    /** The client of {@code head}, which came from the socket peer {@code peer}. */
    public static InetAddress of(InetAddress peer, RequestHead head, TrustedProxies proxies) {
        if (!proxies.trusts(peer)) return peer; // the common case: no proxies, nothing read
        return of(peer, head.header("x-forwarded-for"), head.header("forwarded"), proxies);
    }

    /**
     * The client behind {@code peer} as its {@code X-Forwarded-For} and {@code Forwarded} headers
     * (null when absent; several lines of one joined with commas) name it.
     */
    public static InetAddress of(
            InetAddress peer, String forwardedFor, String forwarded, TrustedProxies proxies) {
        if (!proxies.trusts(peer)) return peer;
        if (forwardedFor != null && !forwardedFor.isBlank())
            return walk(peer, List.of(forwardedFor.split(",", -1)), proxies);
        if (forwarded != null && !forwarded.isBlank())
            return walk(peer, forValues(forwarded), proxies);
        return peer;
    }

    /** From the right: the first address that is no trusted proxy, else the left-most one. */
    private static InetAddress walk(InetAddress peer, List<String> hops, TrustedProxies proxies) {
        InetAddress client = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            InetAddress a = address(hops.get(i).strip());
            if (a == null) break; // garbled: nothing left of it is believed
            client = a;
            if (!proxies.trusts(a)) break;
        }
        return client;
    }

    /**
     * An address as a proxy writes it, with or without a port: {@code 192.0.2.7}, {@code
     * 192.0.2.7:4711}, {@code 2001:db8::7}, {@code [2001:db8::7]:4711}; null for anything else.
     */
    public static InetAddress address(String text) {
        String t = text;
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0) return null;
            String after = t.substring(close + 1);
            if (!after.isEmpty() && !isPort(after)) return null;
            t = t.substring(1, close);
        } else {
            int colon = t.indexOf(':');
            if (colon >= 0 && colon == t.lastIndexOf(':')) { // IPv4 with a port
                if (!isPort(t.substring(colon))) return null;
                t = t.substring(0, colon);
            }
        }
        byte[] b = CidrRange.literal(t);
        if (b == null) return null;
        try {
            return InetAddress.getByAddress(b); // bytes: no lookup
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static boolean isPort(String colonAndDigits) {
        int n = colonAndDigits.length();
        if (n < 2 || n > 6 || colonAndDigits.charAt(0) != ':') return false;
        for (int i = 1; i < n; i++) if (!Character.isDigit(colonAndDigits.charAt(i))) return false;
        return true;
    }

    /**
     * The {@code for=} values of a {@code Forwarded} header's elements, in order, quotes taken off;
     * an element without one gives an empty value (which ends the walk there).
     */
    static List<String> forValues(String header) {
        List<String> out = new ArrayList<>();
        int n = header.length();
        int i = 0;
        String value = "";
        while (i <= n) {
            if (i == n) {
                out.add(value);
                break;
            }
            char c = header.charAt(i);
            if (c == ',') {
                out.add(value);
                value = "";
                i++;
                continue;
            }
            if (c == ';' || c == ' ' || c == '\t') {
                i++;
                continue;
            }
            // A pair: token=value, the value a token or a quoted string.
            int eq = header.indexOf('=', i);
            int stop = nextDelimiter(header, i);
            if (eq < 0 || eq > stop) {
                i = stop; // a pair without a value: skipped
                continue;
            }
            String name = header.substring(i, eq).strip();
            int at = eq + 1;
            String v;
            if (at < n && header.charAt(at) == '"') {
                StringBuilder q = new StringBuilder();
                at++;
                while (at < n && header.charAt(at) != '"') {
                    char d = header.charAt(at);
                    if (d == '\\' && at + 1 < n) d = header.charAt(++at);
                    q.append(d);
                    at++;
                }
                v = q.toString();
                i = Math.min(n, at + 1);
            } else {
                int end = nextDelimiter(header, at);
                v = header.substring(at, end).strip();
                i = end;
            }
            if (name.equalsIgnoreCase("for")) value = v;
        }
        return out;
    }

    private static int nextDelimiter(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ';' || c == ',') return i;
        }
        return s.length();
    }
}
