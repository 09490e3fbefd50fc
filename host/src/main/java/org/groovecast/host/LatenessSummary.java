package org.groovecast.host;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.host.clock.LatenessWindow;

/**
 * How late the real-time clocks' ticks start, from each clock's own histogram, as one Prometheus
 * summary: quantiles over the last 30 to 60 s, count and sum since the clock started. A collector
 * of the Prometheus registry rather than a Micrometer meter, since Micrometer would record every
 * tick a second time; here a scrape reads what the clock counted anyway.
 */
final class LatenessSummary implements Collector {
    static final String NAME = "groovecast_clock_lateness_seconds";
    static final double WINDOW_SECONDS = 30;
    private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999};

    private final String station;
    private final Map<String, LatenessWindow> clocks = new LinkedHashMap<>();
    private final double[] values = new double[QUANTILES.length];

    LatenessSummary(String station) {
        this.station = station;
    }

    void add(String clock, LatenessWindow window) {
        clocks.put(clock, window);
    }

    boolean isEmpty() {
        return clocks.isEmpty();
    }

    @Override
    public synchronized MetricSnapshot collect() {
        SummarySnapshot.Builder summary =
                SummarySnapshot.builder()
                        .name(NAME)
                        .unit(Unit.SECONDS)
                        .help(
                                "how late each tick of a real-time clock started against its deadline: quantiles over the last "
                                        + "30 to 60 s (10 us resolution, up to 50 ms), count and sum since the clock started");
        clocks.forEach(
                (clock, w) -> {
                    w.quantiles(QUANTILES, values);
                    List<Quantile> q = new ArrayList<>(QUANTILES.length);
                    for (int i = 0; i < QUANTILES.length; i++)
                        q.add(new Quantile(QUANTILES[i], values[i]));
                    summary.dataPoint(
                            SummaryDataPointSnapshot.builder()
                                    .count(w.count())
                                    .sum(w.sumSeconds())
                                    .quantiles(Quantiles.of(q))
                                    .labels(Labels.of("clock", clock, "station", station))
                                    .build());
                });
        return summary.build();
    }

    @Override
    public String getPrometheusName() {
        return NAME;
    }
}
