package org.groovecast.host;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import org.groovecast.net.rtmp.RtmpServer;

/**
 * The players of each stream published to the station's RTMP servers, one series per {@code port}
 * and {@code stream} (app/key) while it is published. Streams come and go with their publishers, so
 * this is a collector asked at each scrape rather than meters registered up front.
 */
final class RtmpPlayers implements Collector {
    static final String NAME = "groovecast_rtmp_players";

    private final String station;
    private final List<RtmpServer> servers;

    RtmpPlayers(String station, List<RtmpServer> servers) {
        this.station = station;
        this.servers = servers;
    }

    @Override
    public MetricSnapshot collect() {
        GaugeSnapshot.Builder players =
                GaugeSnapshot.builder()
                        .name(NAME)
                        .help(
                                "connections playing a stream published to the RTMP server (a script's input.rtmp not counted)");
        for (RtmpServer r : servers) {
            String port = String.valueOf(r.port());
            r.forEachStream(
                    (stream, n) ->
                            players.dataPoint(
                                    GaugeDataPointSnapshot.builder()
                                            .value(n)
                                            .labels(
                                                    Labels.of(
                                                            "port", port, "station", station,
                                                            "stream", stream))
                                            .build()));
        }
        return players.build();
    }

    @Override
    public String getPrometheusName() {
        return NAME;
    }
}
