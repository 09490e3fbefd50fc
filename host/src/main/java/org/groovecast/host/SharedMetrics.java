package org.groovecast.host;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

/**
 * The metrics of every station of the process that exposes them at one path of a harbor port they
 * share: one exposition, as Prometheus wants a port's {@code /metrics} to be, each family once and
 * each series labelled with its station (as in each station's own). Whichever station the port
 * routes the request to answers with all of them.
 */
final class SharedMetrics {
    /** The stations on air, by name: a reload's station replaces its predecessor here. */
    private final Map<String, Supplier<StationMetrics>> stations = new ConcurrentSkipListMap<>();

    /** Station {@code name}, on air, has its metrics counted here from now. */
    void onAir(String name, Supplier<StationMetrics> metrics) {
        stations.put(name, metrics);
    }

    /** Station {@code name} stopped; a successor that took its place stays. */
    void stopped(String name, Supplier<StationMetrics> metrics) {
        stations.remove(name, metrics);
    }

    /** How many stations count here now. */
    int stationsOnAir() {
        return stations.size();
    }

    /** The merged exposition, or null while no station exposing here is on air. */
    String scrape() {
        Map<String, List<MetricSnapshot>> families = new LinkedHashMap<>();
        for (Supplier<StationMetrics> s : stations.values()) {
            StationMetrics m = s.get();
            if (m == null) continue;
            for (MetricSnapshot f : m.snapshots())
                families.computeIfAbsent(
                                f.getMetadata().getPrometheusName(), k -> new ArrayList<>())
                        .add(f);
        }
        if (families.isEmpty()) return null;
        List<MetricSnapshot> merged = new ArrayList<>();
        for (List<MetricSnapshot> f : families.values()) merged.add(merge(f));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create()
                    .write(out, new MetricSnapshots(merged), EscapingScheme.DEFAULT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * One family from the stations' own: their series side by side (their station labels differ).
     */
    static MetricSnapshot merge(List<MetricSnapshot> family) {
        MetricSnapshot first = family.getFirst();
        if (family.size() == 1) return first;
        MetricMetadata m = first.getMetadata();
        for (MetricSnapshot s : family) {
            // Two stations whose meters disagree on a family's type: the first station's stands.
            if (s.getClass() != first.getClass()) return first;
        }
        return switch (first) {
            case GaugeSnapshot g -> new GaugeSnapshot(m, points(family));
            case CounterSnapshot c -> new CounterSnapshot(m, points(family));
            case SummarySnapshot s -> new SummarySnapshot(m, points(family));
            case HistogramSnapshot h ->
                    new HistogramSnapshot(h.isGaugeHistogram(), m, points(family));
            case InfoSnapshot i -> new InfoSnapshot(m, points(family));
            case StateSetSnapshot s -> new StateSetSnapshot(m, points(family));
            case UnknownSnapshot u -> new UnknownSnapshot(m, points(family));
            default -> first;
        };
    }

    @SuppressWarnings("unchecked")
    private static <P extends DataPointSnapshot> List<P> points(List<MetricSnapshot> family) {
        List<P> all = new ArrayList<>();
        for (MetricSnapshot s : family) all.addAll((List<P>) s.getDataPoints());
        return all;
    }
}
