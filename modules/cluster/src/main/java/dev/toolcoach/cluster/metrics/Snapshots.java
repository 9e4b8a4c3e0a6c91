package dev.toolcoach.cluster.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;

import dev.toolcoach.cluster.protocol.GroupCounts;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Single-series and one-label metric snapshots, for collectors that export a record of counts at scrape time. */
public final class Snapshots {

    private Snapshots() {
    }

    /** One counter with a data point per value of {@code label}. */
    public static CounterSnapshot counter(String name, String help, String label, Map<String, Long> values) {
        CounterSnapshot.Builder counter = CounterSnapshot.builder().name(name).help(help);
        values.forEach((value, count) -> counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(Labels.of(label, value)).value(count).build()));
        return counter.build();
    }

    /** Dropped groups, one data point per reason ({@code reason="stale_policy"}, ...), every reason present. */
    public static CounterSnapshot byReason(String name, String help, GroupCounts dropped) {
        Map<String, Long> values = new LinkedHashMap<>();
        dropped.byReason().forEach((reason, n) -> values.put(reason.name().toLowerCase(Locale.ROOT), n));
        return counter(name, help, "reason", values);
    }

    public static CounterSnapshot counter(String name, String help, long value) {
        return CounterSnapshot.builder().name(name).help(help)
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build();
    }

    public static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }
}
