package org.groovecast.host.status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.groovecast.net.Network;
import org.groovecast.net.rtmp.RtmpServer;

/**
 * The RTMP servers of a station as the status page lists them: per port, each published stream and
 * its players.
 */
final class RtmpStatus {
    private RtmpStatus() {}

    /**
     * @param detailed whether stream keys show whole; otherwise only their app, since a key is what
     *     lets one publish
     */
    static List<Object> of(Network network, boolean detailed) {
        List<Object> servers = new ArrayList<>();
        for (RtmpServer r : network.rtmpServers()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("port", r.isListening() ? r.actualPort() : r.port());
            SortedMap<String, Integer> players = new TreeMap<>();
            r.forEachStream(players::put);
            List<Object> streams = new ArrayList<>();
            for (Map.Entry<String, Integer> e : players.entrySet()) {
                String path = detailed ? e.getKey() : masked(e.getKey(), streams.size() + 1);
                streams.add(Map.of("path", path, "players", e.getValue()));
            }
            m.put("streams", streams);
            servers.add(m);
        }
        return servers;
    }

    /**
     * {@code live/… #2}: the app, not the key; numbered, since two keys of one app must stay two
     * streams.
     */
    private static String masked(String path, int n) {
        int slash = path.indexOf('/');
        return (slash < 0 ? "" : path.substring(0, slash + 1)) + "… #" + n;
    }
}
