package dev.toolcoach.cluster.learner;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerStatus;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static dev.toolcoach.cluster.metrics.Snapshots.byReason;
import static dev.toolcoach.cluster.metrics.Snapshots.counter;
import static dev.toolcoach.cluster.metrics.Snapshots.gauge;

/**
 * Exports the learner's progress to the node's {@code /metrics}: the learner publishes its latest
 * {@link LearnerStatus} after every change, a scrape reads it. Nothing is exported where no learner runs.
 */
public final class LearnerMetrics implements Extension, MultiCollector {

    public static final Id ID = new Id();

    private final AtomicReference<LearnerStatus> latest = new AtomicReference<>();

    private LearnerMetrics(ExtendedActorSystem system) {
        ToolCoachMetrics.get(system).registry().register(this);
    }

    public static LearnerMetrics get(ActorSystem<?> system) {
        return ID.get(Adapter.toClassic(system));
    }

    void publish(LearnerStatus status) {
        latest.set(status);
    }

    /** The learner's latest status on this node; empty where no learner has run. */
    public Optional<LearnerStatus> latest() {
        return Optional.ofNullable(latest.get());
    }

    @Override
    public MetricSnapshots collect() {
        LearnerStatus s = latest.get();
        if (s == null) return MetricSnapshots.of();
        LearnerAccounts a = s.accounts();
        return MetricSnapshots.of(
                counter("toolcoach_learner_steps", "Training steps done", s.steps()),
                counter("toolcoach_learner_traces", "Traces received, by outcome", "outcome", Map.of(
                        "received", a.received(), "duplicate", a.duplicates())),
                counter("toolcoach_learner_groups", "Query groups a step took, by disposition", "disposition", Map.of(
                        "trained", a.trained(), "skipped", a.skipped())),
                byReason("toolcoach_learner_groups_dropped", "Query groups the learner dropped, by reason", a.dropped()),
                gauge("toolcoach_learner_groups_waiting", "Complete groups waiting for a training step", s.groupsWaiting()),
                gauge("toolcoach_learner_policy_version", "Adapter version the learner holds", s.policyVersion()),
                gauge("toolcoach_learner_last_mean_reward", "Mean reward of the last step's traces", s.lastMeanReward()),
                gauge("toolcoach_learner_last_groups_sampled", "Query groups that closed for the last step (its batch and the drops before it)",
                        s.lastGroupsSampled()),
                gauge("toolcoach_learner_last_informative_fraction", "Share of the last step's sampled groups it could learn from",
                        s.lastInformativeFraction()),
                gauge("toolcoach_learner_training", "1 while a training step runs", s.training() ? 1 : 0),
                gauge("toolcoach_learner_finished", "1 once every group of the job is closed", s.finished() ? 1 : 0));
    }

    public static final class Id extends AbstractExtensionId<LearnerMetrics> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public LearnerMetrics createExtension(ExtendedActorSystem system) {
            return new LearnerMetrics(system);
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
