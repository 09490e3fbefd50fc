package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.net.Network;
import org.groovecast.net.listening.ListeningServer;
import org.junit.jupiter.api.Test;

/** Metrics show a listening server's figures without the engine knowing its protocol. */
class ServerReadingsTest {
    /** A protocol the engine was never told of, with one figure per stream it serves. */
    private static final class Walkie implements ListeningServer {
        @Override
        public String protocol() {
            return "walkie";
        }

        @Override
        public int port() {
            return 7000;
        }

        @Override
        public int actualPort() {
            return 7000;
        }

        @Override
        public boolean isListening() {
            return false;
        }

        @Override
        public Future<?> listen(Vertx vertx, String defaultBind) {
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> close() {
            return Future.succeededFuture();
        }

        @Override
        public void readings(Readings r) {
            r.reading("talkers", "talkers on a channel", 2, "channel", "a");
            r.reading("talkers", "talkers on a channel", 5, "channel", "b");
        }
    }

    @Test
    void eachReadingIsAGaugeNamedForItsProtocolLabelledWithStationPortAndItsOwnLabels() {
        Network net = new Network("127.0.0.1", 1 << 16, null);
        net.declare(Walkie.class, 7000, Walkie::new);

        List<MetricSnapshot> snapshots = new ArrayList<>();
        new ServerReadings("radio.groovy", net).collect().forEach(snapshots::add);

        assertEquals(1, snapshots.size());
        GaugeSnapshot g = (GaugeSnapshot) snapshots.getFirst();
        assertEquals("groovecast_walkie_talkers", g.getMetadata().getPrometheusName());
        assertEquals(2, g.getDataPoints().size());
        GaugeSnapshot.GaugeDataPointSnapshot b = g.getDataPoints().get(1);
        assertEquals(5, b.getValue());
        assertEquals("7000", b.getLabels().get("port"));
        assertEquals("radio.groovy", b.getLabels().get("station"));
        assertEquals("b", b.getLabels().get("channel"));
        net.close();
    }
}
