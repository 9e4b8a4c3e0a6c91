package dev.toolcoach.cluster.coach;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static dev.toolcoach.cluster.metrics.Snapshots.byReason;
import static dev.toolcoach.cluster.metrics.Snapshots.counter;
import static dev.toolcoach.cluster.metrics.Snapshots.gauge;

/**
 * Exports the coach's accounts to the node's {@code /metrics}: the coach publishes its latest
 * {@link CoachProgress} after every change, a scrape reads it. Nothing is exported on a node where the
 * coach does not run (or no longer runs: the singleton moved away).
 */
public final class CoachMetrics implements Extension, MultiCollector {

    public static final Id ID = new Id();

    private final AtomicReference<CoachProgress> latest = new AtomicReference<>();

    private CoachMetrics(ExtendedActorSystem system) {
        ToolCoachMetrics.get(system).registry().register(this);
    }

    public static CoachMetrics get(ActorSystem<?> system) {
        return ID.get(Adapter.toClassic(system));
    }

    void publish(CoachProgress progress) {
        latest.set(progress);
    }

    /** The coach's latest accounts on this node; empty where no coach runs (or it has stopped). */
    public Optional<CoachProgress> latest() {
        return Optional.ofNullable(latest.get());
    }

    void clear() {
        latest.set(null);
    }

    @Override
    public MetricSnapshots collect() {
        CoachProgress p = latest.get();
        if (p == null) return MetricSnapshots.of();
        return MetricSnapshots.of(
                counter("toolcoach_coach_groups", "Query groups, by event", "event", Map.of(
                        "dispatched", p.groupsDispatched(), "completed", p.groupsCompleted(), "trained", p.groupsTrained())),
                byReason("toolcoach_coach_groups_dropped", "Query groups the learner dropped, by reason", p.groupsDropped()),
                counter("toolcoach_coach_rollouts", "Rollouts, by event", "event", Map.of(
                        "dispatched", p.rolloutsDispatched(), "redispatched", p.rolloutsRedispatched(),
                        "completed", p.rolloutsCompleted(), "cancelled", p.rolloutsCancelled(),
                        "deadline_missed", p.deadlinesMissed(), "athlete_lost", p.athleteLosses(),
                        "duplicate_discarded", p.duplicatesDiscarded())),
                counter("toolcoach_coach_reports_ignored", "Learner reports for groups not open or rollouts never dispatched",
                        p.reportsIgnored()),
                gauge("toolcoach_coach_groups_open", "Query groups neither trained nor dropped", p.groupsOpen()),
                gauge("toolcoach_coach_rollouts_in_flight", "Rollouts out with an athlete", p.rolloutsInFlight()),
                gauge("toolcoach_coach_rollouts_queued", "Rollouts waiting to go out again", p.rolloutsQueued()),
                gauge("toolcoach_coach_policy_version", "Newest adapter version trained", p.policyVersion()));
    }

    public static final class Id extends AbstractExtensionId<CoachMetrics> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public CoachMetrics createExtension(ExtendedActorSystem system) {
            return new CoachMetrics(system);
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
