package org.groovecast.host.status;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.groovecast.api.Encoder;
import org.groovecast.net.harbor.HarborMount;
import org.groovecast.net.harbor.HarborOutput;

/**
 * {@code /status-json.xsl} in Icecast 2.4's shape, so that the players, widgets and directory
 * scripts written for Icecast read a Groovecast harbor unchanged: {@code icestats} with the
 * server's fields and {@code source}, an object for one mount and a list for several (Icecast's
 * XML-to-JSON quirk, which those scripts expect), mounts in path order, keys in Icecast's
 * alphabetical order, its defaults where the script set nothing.
 */
final class IcecastStats {
    private static final DateTimeFormatter RFC_822 =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.US)
                    .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ISO_8601 =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ", Locale.US)
                    .withZone(ZoneOffset.UTC);

    private IcecastStats() {}

    /**
     * @param host the {@code Host} the client asked for (listen URLs use it), or null
     */
    static Map<String, Object> of(StationStatus status, int port, String host, String serverId) {
        String authority = host != null && !host.isBlank() ? host : "127.0.0.1:" + port;
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("admin", "icemaster@localhost");
        stats.put("host", authority.replaceFirst(":\\d+$", ""));
        stats.put("location", "Earth");
        stats.put("server_id", serverId);
        Instant start = Instant.ofEpochMilli(status.startedAt());
        stats.put("server_start", RFC_822.format(start));
        stats.put("server_start_iso8601", ISO_8601.format(start));
        List<HarborOutput> mounts = new ArrayList<>(status.mounts());
        mounts.removeIf(o -> o.port() != port);
        mounts.sort(Comparator.comparing(o -> o.mount().path()));
        List<Object> sources = new ArrayList<>();
        for (HarborOutput o : mounts) sources.add(source(o, status.histories().get(o), authority));
        if (sources.size() == 1) stats.put("source", sources.getFirst());
        else if (!sources.isEmpty()) stats.put("source", sources);
        return Map.of("icestats", stats);
    }

    private static Map<String, Object> source(
            HarborOutput o, TrackHistory history, String authority) {
        HarborMount mount = o.mount();
        Map<String, String> icy = mount.icyHeaders();
        Map<String, Object> s = new TreeMap<>();
        Encoder encoder = o.encoder();
        if (o.context() != null) {
            // As Icecast shows a libshout source (ezstream, ices): its ice-audio-info, and each
            // part as a key.
            int channels = o.context().format().channels();
            int rate = o.context().format().sampleRate();
            int bitrate = encoder.bitrate();
            s.put(
                    "audio_info",
                    (bitrate > 0 ? "bitrate=" + bitrate + ";" : "")
                            + "samplerate="
                            + rate
                            + ";channels="
                            + channels);
            if (bitrate > 0) s.put("bitrate", bitrate);
            s.put("channels", channels);
            s.put("samplerate", rate);
        }
        s.put("genre", icy.getOrDefault("icy-genre", "various"));
        s.put("listener_peak", mount.listenerPeak());
        s.put("listeners", mount.listeners());
        s.put("listenurl", "http://" + authority + mount.path());
        s.put("server_description", icy.getOrDefault("icy-description", "Unspecified description"));
        s.put("server_name", icy.getOrDefault("icy-name", "Unspecified name"));
        s.put("server_type", mount.contentType());
        if (icy.containsKey("icy-url")) s.put("server_url", icy.get("icy-url"));
        Instant start = Instant.ofEpochMilli(mount.createdAt());
        s.put("stream_start", RFC_822.format(start));
        s.put("stream_start_iso8601", ISO_8601.format(start));
        TrackHistory.Entry now = history == null ? null : history.current();
        if (now != null && now.title() != null) {
            // Icecast shows an Ogg stream's comments as they are and an MP3/AAC stream's ICY line,
            // "artist - title": players split that line themselves.
            if (separateTags(mount.contentType())) {
                s.put("title", now.title());
                if (now.artist() != null) s.put("artist", now.artist());
            } else {
                s.put(
                        "title",
                        now.artist() == null ? now.title() : now.artist() + " - " + now.title());
            }
        }
        return s;
    }

    private static boolean separateTags(String contentType) {
        return contentType.startsWith("audio/ogg")
                || contentType.startsWith("application/ogg")
                || contentType.startsWith("audio/opus")
                || contentType.startsWith("audio/flac");
    }
}
