package org.groovecast.host.status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.net.Network;
import org.groovecast.net.rtmp.RtmpServer;

/** The RTMP servers of a station as the status page lists them: per port, each published stream and its subscribers. */
final class RtmpStatus {
    private RtmpStatus() {
    }

    static List<Object> of(Network network) {
        List<Object> servers = new ArrayList<>();
        for (RtmpServer r : network.rtmpServers()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("port", r.isListening() ? r.actualPort() : r.port());
            List<Object> streams = new ArrayList<>();
            r.published().forEach((path, subscribers) -> streams.add(Map.of("path", path, "subscribers", subscribers)));
            m.put("streams", streams);
            servers.add(m);
        }
        return servers;
    }
}
