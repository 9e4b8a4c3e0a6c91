package dev.toolcoach.cluster.job;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.generate.DecoderStats;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.time.Clock;
import java.time.Instant;

import static dev.toolcoach.cluster.metrics.Snapshots.counter;
import static dev.toolcoach.cluster.metrics.Snapshots.gauge;

/**
 * Exports an athlete node's engine to the node's {@code /metrics}: which adapter it decodes with,
 * {@code toolcoach_engine_adapter_version} (0 = the base model) and {@code toolcoach_engine_adapter_swapped_seconds}
 * (Unix time at which the engine swapped that version in, 0 before the first swap), so the spread of a new policy
 * over the cluster can be followed from outside; and its KV cache of slots: slots decoding and parked (kept for a
 * conversation's next turn), the cache's bytes, and since the job's engine started the context tokens prefilled,
 * reused from a conversation's own slot and copied from another slot's shared prefix, parked slots evicted before
 * their conversation ended, and decode rows that decoded or rode along idle. Nothing is exported while the node
 * serves no job.
 */
public final class EngineMetrics implements Extension, MultiCollector {

    public static final Id ID = new Id();

    private record Swap(InferenceEngine engine, int version, double swappedAtSeconds) {
    }

    private final Clock clock;
    private volatile Swap latest;

    EngineMetrics(Clock clock) {
        this.clock = clock;
    }

    public static EngineMetrics get(ActorSystem<?> system) {
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
        DecoderStats kv = s.engine().stats();
        return MetricSnapshots.of(
                gauge("toolcoach_engine_adapter_version", "Adapter version the node's engine decodes with (0 = base model)", s.version()),
                gauge("toolcoach_engine_adapter_swapped_seconds", "Unix time the engine swapped its adapter version in (0: not yet)",
                        s.swappedAtSeconds()),
                gauge("toolcoach_engine_kv_slots", "KV cache slots of the node's engine", kv.slots()),
                gauge("toolcoach_engine_kv_slots_decoding", "KV slots whose sequence is being decoded", kv.decoding()),
                gauge("toolcoach_engine_kv_slots_parked", "KV slots kept for a conversation's next turn", kv.parked()),
                gauge("toolcoach_engine_kv_cache_bytes", "Bytes the engine's keys and values take on the device", kv.cacheBytes()),
                counter("toolcoach_engine_prefill_tokens", "Context tokens the engine prefilled", kv.prefillTokens()),
                counter("toolcoach_engine_reused_tokens", "Context tokens a conversation's own KV slot already held", kv.reusedTokens()),
                counter("toolcoach_engine_shared_tokens", "Context tokens copied from another KV slot's shared prefix", kv.sharedTokens()),
                counter("toolcoach_engine_kv_evictions", "Parked KV slots taken back before their conversation ended", kv.evictions()),
                counter("toolcoach_engine_decode_rows", "Rows of decode steps that decoded a token", kv.decodeRows()),
                counter("toolcoach_engine_idle_rows", "Rows of decode steps that rode along without a token", kv.idleRows()));
    }

    public static final class Id extends AbstractExtensionId<EngineMetrics> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public EngineMetrics createExtension(ExtendedActorSystem system) {
            EngineMetrics metrics = new EngineMetrics(Clock.systemUTC());
            ToolCoachMetrics.get(system).registry().register(metrics);
            return metrics;
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
