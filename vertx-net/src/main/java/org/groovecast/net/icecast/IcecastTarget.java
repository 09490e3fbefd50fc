package org.groovecast.net.icecast;

import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.net.auth.BasicAuth;

/**
 * Where and how an {@code output.icecast} streams: the server, the mount, the source credentials
 * and the stream's description headers.
 */
public record IcecastTarget(
        String host,
        int port,
        String user,
        String password,
        String mount,
        String contentType,
        String name,
        String description,
        String genre,
        String url,
        boolean isPublic) {
    public IcecastTarget {
        mount = mount.startsWith("/") ? mount : "/" + mount;
    }

    String authorization() {
        return BasicAuth.header(user, password);
    }

    /** The source request's headers, as Icecast 2.4 reads them. */
    Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Host", host + ":" + port);
        h.put("Authorization", authorization());
        h.put("User-Agent", "Groovecast");
        h.put("Content-Type", contentType);
        h.put("Ice-Public", isPublic ? "1" : "0");
        if (!name.isEmpty()) h.put("Ice-Name", name);
        if (!description.isEmpty()) h.put("Ice-Description", description);
        if (!genre.isEmpty()) h.put("Ice-Genre", genre);
        if (!url.isEmpty()) h.put("Ice-Url", url);
        h.put("Expect", "100-continue");
        return h;
    }

    @Override
    public String toString() {
        return "icecast://" + host + ":" + port + mount;
    }
}
