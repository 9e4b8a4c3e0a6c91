package dev.toolcoach.cluster.metrics;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import dev.toolcoach.trace.tooluse.ToolUseRecord;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * TILE's tool-use summary on the node's {@code /metrics}, per tool (not per context: contexts may be query hashes, too
 * many for labels): calls by outcome, retries and repeats, over the tool-use records of the traces this node's learner
 * trained on. Registered on first use, so nothing is exported where no learner runs.
 */
public final class ToolUseMetrics implements Extension, MultiCollector {

    public static final Id ID = new Id();

    private final Map<String, Map<ToolUseRecord.Outcome, LongAdder>> calls = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> retries = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> repeats = new ConcurrentHashMap<>();

    private ToolUseMetrics(ExtendedActorSystem system) {
        ToolCoachMetrics.get(system).registry().register(this);
    }

    public static ToolUseMetrics get(ActorSystem<?> system) {
        return ID.get(Adapter.toClassic(system));
    }

    public void record(Collection<ToolUseRecord> records) {
        for (ToolUseRecord r : records) {
            calls.computeIfAbsent(r.tool(), t -> new ConcurrentHashMap<>())
                    .computeIfAbsent(r.outcome(), o -> new LongAdder()).increment();
            if (r.retry()) retries.computeIfAbsent(r.tool(), t -> new LongAdder()).increment();
            if (r.repeat()) repeats.computeIfAbsent(r.tool(), t -> new LongAdder()).increment();
        }
    }

    @Override
    public MetricSnapshots collect() {
        CounterSnapshot.Builder byOutcome = CounterSnapshot.builder().name("toolcoach_tile_tool_calls")
                .help("Tool calls of trained traces (TILE tool-use records), by tool and outcome");
        calls.forEach((tool, outcomes) -> outcomes.forEach((outcome, n) -> byOutcome.dataPoint(
                CounterSnapshot.CounterDataPointSnapshot.builder()
                        .labels(Labels.of("tool", tool, "outcome", outcome.name().toLowerCase(java.util.Locale.ROOT)))
                        .value(n.sum()).build())));
        return MetricSnapshots.of(byOutcome.build(),
                perTool("toolcoach_tile_tool_retries", "Calls that retried the same tool at once with other arguments", retries),
                perTool("toolcoach_tile_tool_repeats", "Calls that repeated an identical earlier call of their trajectory", repeats));
    }

    private static CounterSnapshot perTool(String name, String help, Map<String, LongAdder> values) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
        values.forEach((tool, n) -> b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(Labels.of("tool", tool)).value(n.sum()).build()));
        return b.build();
    }

    public static final class Id extends AbstractExtensionId<ToolUseMetrics> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public ToolUseMetrics createExtension(ExtendedActorSystem system) {
            return new ToolUseMetrics(system);
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
