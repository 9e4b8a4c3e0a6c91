package dev.toolcoach.cluster.job;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.model.engine.InferenceEngine;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.time.Clock;
import java.time.Instant;

import static dev.toolcoach.cluster.metrics.Snapshots.gauge;

/**
 * Exports which adapter an athlete node's engine decodes with to the node's {@code /metrics}:
 * {@code toolcoach_engine_adapter_version} (0 = the base model) and {@code toolcoach_engine_adapter_swapped_seconds}
 * (Unix time at which the engine swapped that version in, 0 before the first swap), so the spread of a new policy
 * over the cluster can be followed from outside. Nothing is exported while the node serves no job.
 */
public final class EngineAdapterMetrics implements Extension, MultiCollector {

    public static final Id ID = new Id();

    private record Swap(InferenceEngine engine, int version, double swappedAtSeconds) {
    }

    private final Clock clock;
    private volatile Swap latest;

    EngineAdapterMetrics(Clock clock) {
        this.clock = clock;
    }

    public static EngineAdapterMetrics get(ActorSystem<?> system) {
        return ID.get(Adapter.toClassic(system));
    }

    /** Follows {@code engine} from now on (the job's engine on this node), forgetting any earlier one. */
    public void watch(InferenceEngine engine) {
        latest = new Swap(engine, engine.adapterVersion(), 0);
        follow(engine, engine.adapterVersion() + 1);
    }

    /** The node no longer serves a job. */
    public void forget() {
        latest = null;
    }

    private void follow(InferenceEngine engine, int next) {
        engine.whenAdapterAtLeast(next).thenAccept(version -> {
            Swap current = latest;
            if (current == null || current.engine() != engine) return; // a job ended: stop following its engine
            Instant now = clock.instant();
            latest = new Swap(engine, version, now.getEpochSecond() + now.getNano() / 1e9);
            follow(engine, version + 1);
        });
    }

    @Override
    public MetricSnapshots collect() {
        Swap s = latest;
        if (s == null) return MetricSnapshots.of();
        return MetricSnapshots.of(
                gauge("toolcoach_engine_adapter_version", "Adapter version the node's engine decodes with (0 = base model)", s.version()),
                gauge("toolcoach_engine_adapter_swapped_seconds", "Unix time the engine swapped its adapter version in (0: not yet)",
                        s.swappedAtSeconds()));
    }

    public static final class Id extends AbstractExtensionId<EngineAdapterMetrics> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public EngineAdapterMetrics createExtension(ExtendedActorSystem system) {
            EngineAdapterMetrics metrics = new EngineAdapterMetrics(Clock.systemUTC());
            ToolCoachMetrics.get(system).registry().register(metrics);
            return metrics;
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
