package org.groovecast.net.harbor;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;
import org.groovecast.net.harbor.http.HttpReply;

/**
 * {@code /<mount>.m3u} and {@code /<mount>.pls} for every mount: what a "listen" link points at, so
 * that a click opens the stream in the desktop player rather than in the browser. The URL inside is
 * the mount's as the client reached the port (its {@code Host} header), so it is right behind a
 * port forward or a DNS name the engine does not know.
 */
final class MountPlaylists {
    /**
     * A host name, IPv4 or bracketed IPv6 address, and an optional port: anything else could inject
     * lines.
     */
    private static final Pattern AUTHORITY =
            Pattern.compile("([A-Za-z0-9._~-]+|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?");

    private static final Map<String, String> CORS = Map.of("Access-Control-Allow-Origin", "*");

    private MountPlaylists() {}

    /**
     * The playlist {@code path} asks for, or null when it names no mount's playlist.
     *
     * @param host the request's {@code Host} header, or null
     * @param local the connection's local address, for a request without a usable {@code Host}
     */
    static HttpReply answer(String path, HarborServer server, String host, SocketAddress local) {
        boolean m3u = path.endsWith(".m3u");
        if (!m3u && !path.endsWith(".pls")) return null;
        HarborMount mount = server.mount(path.substring(0, path.length() - 4));
        if (mount == null) return null;
        String url =
                (server.tls() != null ? "https://" : "http://")
                        + authority(host, local)
                        + encodedPath(mount.path());
        String name = mount.name();
        String title = oneLine(name == null || name.isEmpty() ? mount.path().substring(1) : name);
        if (m3u) {
            return new HttpReply(
                    200,
                    "audio/x-mpegurl",
                    CORS,
                    "#EXTM3U\n#EXTINF:-1," + title + "\n" + url + "\n");
        }
        return new HttpReply(
                200,
                "audio/x-scpls",
                CORS,
                "[playlist]\nFile1="
                        + url
                        + "\nTitle1="
                        + title
                        + "\nLength1=-1\nNumberOfEntries=1\nVersion=2\n");
    }

    static String authority(String host, SocketAddress local) {
        if (host != null && AUTHORITY.matcher(host).matches()) return host;
        if (local instanceof InetSocketAddress a && a.getAddress() != null) {
            String ip = a.getAddress().getHostAddress();
            if (a.getAddress() instanceof Inet6Address) {
                int zone = ip.indexOf('%');
                ip = "[" + (zone < 0 ? ip : ip.substring(0, zone)) + "]";
            }
            return ip + ":" + a.getPort();
        }
        return "localhost";
    }

    /**
     * The mount's path as a URL path: characters a URL cannot carry as they are percent-encoded
     * (UTF-8).
     */
    private static String encodedPath(String path) {
        StringBuilder b = new StringBuilder(path.length());
        for (byte x : path.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (c >= 'a' && c <= 'z'
                    || c >= 'A' && c <= 'Z'
                    || c >= '0' && c <= '9'
                    || "/-._~!$&'()*+,;=:@".indexOf(c) >= 0) {
                b.append((char) c);
            } else {
                b.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return b.toString();
    }

    /** A title on one line: a line break would start another entry. */
    private static String oneLine(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? ' ' : c);
        }
        return b.toString();
    }
}
