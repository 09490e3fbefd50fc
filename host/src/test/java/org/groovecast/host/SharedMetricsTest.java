package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stations sharing a port's metrics path: one family per name, every station's series in it. */
class SharedMetricsTest {
    private static GaugeSnapshot gauge(String station, double v) {
        return GaugeSnapshot.builder()
                .name("groovecast_clock_duty_ratio")
                .help("duty")
                .dataPoint(
                        GaugeSnapshot.GaugeDataPointSnapshot.builder()
                                .value(v)
                                .labels(Labels.of("station", station))
                                .build())
                .build();
    }

    @Test
    void aFamilyOfSeveralStationsIsOneFamilyWithEveryStationsSeries() {
        MetricSnapshot merged =
                SharedMetrics.merge(List.of(gauge("a.groovy", 0.1), gauge("b.groovy", 0.2)));

        GaugeSnapshot g = (GaugeSnapshot) merged;
        assertEquals("groovecast_clock_duty_ratio", g.getMetadata().getPrometheusName());
        assertEquals(
                List.of("a.groovy", "b.groovy"),
                g.getDataPoints().stream().map(p -> p.getLabels().get("station")).toList());
    }

    @Test
    void familiesWhoseTypesDisagreeKeepTheFirstStationsRatherThanMixingThem() {
        CounterSnapshot c =
                CounterSnapshot.builder()
                        .name("groovecast_clock_duty_ratio")
                        .dataPoint(
                                CounterSnapshot.CounterDataPointSnapshot.builder()
                                        .value(3)
                                        .labels(Labels.of("station", "b.groovy"))
                                        .build())
                        .build();
        GaugeSnapshot a = gauge("a.groovy", 0.1);

        assertEquals(a, SharedMetrics.merge(List.of(a, c)));
    }

    @Test
    void noStationOnAirIsNoExpositionAndAStationThatStoppedLeavesItsSuccessorsPlace() {
        SharedMetrics port = new SharedMetrics();
        assertEquals(null, port.scrape());
        java.util.function.Supplier<StationMetrics> before = () -> null;
        java.util.function.Supplier<StationMetrics> after = () -> null;
        port.onAir("a.groovy", before);
        port.onAir("a.groovy", after); // a reload's station takes the place
        port.stopped("a.groovy", before); // then its predecessor stops
        assertEquals(null, port.scrape(), "neither has metrics yet");
        assertEquals(1, port.stationsOnAir());
    }
}
