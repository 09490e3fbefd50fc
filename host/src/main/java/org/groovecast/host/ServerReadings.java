package org.groovecast.host;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.net.Network;
import org.groovecast.net.listening.ListeningServer;

/**
 * The figures of the station's listening servers, whatever their protocol, as gauges {@code
 * groovecast_<protocol>_<name>} labelled with the station, the port and what the server adds (an
 * RTMP stream). Asked at each scrape, since what they count (streams published, say) comes and goes
 * with the clients.
 */
final class ServerReadings implements MultiCollector {
    private final String station;
    private final Network network;

    ServerReadings(String station, Network network) {
        this.station = station;
        this.network = network;
    }

    @Override
    public MetricSnapshots collect() {
        Map<String, GaugeSnapshot.Builder> gauges = new LinkedHashMap<>();
        for (ListeningServer s : network.servers()) {
            String port = String.valueOf(s.port());
            String prefix = "groovecast_" + s.protocol() + "_";
            s.readings(
                    (name, help, value, labels) -> {
                        String[] all = new String[labels.length + 4];
                        all[0] = "port";
                        all[1] = port;
                        all[2] = "station";
                        all[3] = station;
                        System.arraycopy(labels, 0, all, 4, labels.length);
                        gauges.computeIfAbsent(
                                        prefix + name,
                                        n -> GaugeSnapshot.builder().name(n).help(help))
                                .dataPoint(
                                        GaugeDataPointSnapshot.builder()
                                                .value(value)
                                                .labels(Labels.of(all))
                                                .build());
                    });
        }
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        gauges.values().forEach(g -> all.metricSnapshot(g.build()));
        return all.build();
    }
}
