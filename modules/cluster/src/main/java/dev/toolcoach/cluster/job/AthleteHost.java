package dev.toolcoach.cluster.job;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.actor.typed.receptionist.Receptionist;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.cluster.athlete.AthleteActor;
import dev.toolcoach.cluster.athlete.AthleteJob;
import dev.toolcoach.cluster.athlete.DeliverySettings;
import dev.toolcoach.cluster.athlete.PolicyGate;
import dev.toolcoach.cluster.athlete.RolloutRunner;
import dev.toolcoach.cluster.coach.CoachSingleton;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.learner.LearnerSingleton;
import dev.toolcoach.cluster.tile.TilePreferences;
import dev.toolcoach.cluster.protocol.JobProtocol.GetJob;
import dev.toolcoach.cluster.protocol.JobProtocol;
import dev.toolcoach.cluster.protocol.JobProtocol.JobSpec;
import dev.toolcoach.cluster.tools.ClusterToolSettings;
import dev.toolcoach.cluster.weights.AdapterReceiver;
import dev.toolcoach.policy.LocalPolicy;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;

/**
 * The athlete side of a node: idle athletes (registered, answering echoes) until a job is announced; then
 * the job's model is loaded into one inference engine shared by the node's athletes, an adapter receiver
 * keeps the engine on the learner's latest version, the tools are reached through the cluster, and the
 * athletes pull rollouts from the job's coach. A join that fails (the model not yet on this node's disk, the
 * tools not yet up) is tried again with a doubling back-off. When the job's announcer goes away the job's actors stop,
 * the engine is freed and the idle athletes come back. A node that joins mid-run finds the job the same way.
 */
public final class AthleteHost extends AbstractBehavior<AthleteHost.Command> {

    /** The host's own messages; none crosses the wire. */
    public interface Command extends NoSerializationVerificationNeeded {
    }

    private record AnnouncersChanged(Set<ActorRef<JobProtocol.Command>> announcers) implements Command {
    }

    private record SpecReceived(ActorRef<JobProtocol.Command> announcer, JobSpec spec, Throwable failure) implements Command {
    }

    private record Ready(ActorRef<JobProtocol.Command> announcer, JobSpec spec, JobResources resources, Throwable failure) implements Command {
    }

    /** Try again to join the announced job after a failed attempt (its model not there yet, say). */
    private enum RetryJoin implements Command {
        INSTANCE
    }

    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
    /** First wait before joining again after a failure; doubled per failure up to the maximum. */
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration MAX_RETRY = Duration.ofSeconds(30);
    private static final Duration CATCH_UP = Duration.ofSeconds(2);

    private final int athletes;
    private final ClusterToolSettings toolSettings;
    private final DeliverySettings delivery;
    private final TimerScheduler<Command> timers;
    private final List<ActorRef<?>> children = new ArrayList<>();
    private Duration nextRetry = FIRST_RETRY;
    private Set<ActorRef<JobProtocol.Command>> announcers = Set.of();
    /** The announcer of the job being joined or run, null when idle. */
    private ActorRef<JobProtocol.Command> current;
    private JobResources resources;
    private int generation;

    public static Behavior<Command> create(int athletes, ClusterToolSettings toolSettings, DeliverySettings delivery) {
        return Behaviors.setup(context -> Behaviors.withTimers(
                timers -> new AthleteHost(context, timers, athletes, toolSettings, delivery)));
    }

    private AthleteHost(ActorContext<Command> context, TimerScheduler<Command> timers, int athletes,
                        ClusterToolSettings toolSettings, DeliverySettings delivery) {
        super(context);
        this.timers = timers;
        this.athletes = athletes;
        this.toolSettings = toolSettings;
        this.delivery = delivery;
        ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class,
                l -> new AnnouncersChanged(l.getServiceInstances(ServiceKeys.JOB)));
        context.getSystem().receptionist().tell(Receptionist.subscribe(ServiceKeys.JOB, listings));
        spawnIdleAthletes();
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(AnnouncersChanged.class, this::onAnnouncers)
                .onMessage(SpecReceived.class, this::onSpec)
                .onMessage(Ready.class, this::onReady)
                .onMessage(RetryJoin.class, retry -> onAnnouncers(new AnnouncersChanged(announcers)))
                .onSignal(PostStop.class, stop -> {
                    release();
                    return this;
                })
                .build();
    }

    private Behavior<Command> onAnnouncers(AnnouncersChanged changed) {
        announcers = changed.announcers();
        if (current != null && !announcers.contains(current)) {
            getContext().getLog().info("the job ended; the athletes are idle again");
            stopChildren();
            release();
            current = null;
            spawnIdleAthletes();
        }
        if (current == null && !announcers.isEmpty()) {
            ActorRef<JobProtocol.Command> asked = announcers.iterator().next();
            current = asked;
            getContext().ask(JobSpec.class, asked, ASK_TIMEOUT, GetJob::new, (spec, failure) -> new SpecReceived(asked, spec, failure));
        }
        return this;
    }

    private Behavior<Command> onSpec(SpecReceived received) {
        if (received.announcer() != current) return this; // the job ended while we asked
        if (received.failure() != null) {
            getContext().getLog().warn("the job's announcer did not answer ({}); trying again in {} s",
                    received.failure().toString(), nextRetry.toSeconds());
            current = null;
            retryLater();
            return this;
        }
        JobSpec spec = received.spec();
        getContext().getLog().info("joining job {}: model {}, tools {}", spec.jobId(), spec.modelDir(), spec.suites());
        getContext().pipeToSelf(JobResources.load(getContext().getSystem(), spec, athletes, toolSettings),
                (res, failure) -> new Ready(received.announcer(), spec, res, failure));
        return this;
    }

    private Behavior<Command> onReady(Ready ready) {
        if (ready.failure() != null) {
            getContext().getLog().error("cannot join job {}: {}; trying again in {} s", ready.spec().jobId(),
                    reason(ready.failure()), nextRetry.toSeconds());
            if (ready.announcer() == current) {
                current = null;
                retryLater();
            }
            return this;
        }
        nextRetry = FIRST_RETRY;
        if (ready.announcer() != current) { // the job ended while loading
            ready.resources().close();
            return this;
        }
        resources = ready.resources();
        stopChildren();
        generation++;
        JobSpec spec = ready.spec();
        LocalPolicy policy = resources.policy();
        children.add(getContext().spawn(AdapterReceiver.create(policy.engine()::setAdapter, CATCH_UP), "adapter-receiver-" + generation));
        EngineMetrics.get(getContext().getSystem()).watch(policy.engine());
        ToolEnvironment tools = spec.adapt().map(adapt -> adapt.over(resources.tools(),
                TilePreferences.get(getContext().getSystem()).preferences(), spec.seed())).orElse(resources.tools());
        // never below the job's first version: a continued adapter is sampled from the first rollout, never the bare base
        PolicyGate gate = needed -> policy.engine().whenAdapterAtLeast(Math.max(spec.firstVersion(), needed));
        RolloutRunner runner = new RolloutRunner(policy.tokenizer(), policy.chatFormat(), policy.generator(), tools,
                spec.agent(), resources.rollouts(), gate, spec.maxPolicyLag(), spec.gateTimeout());
        AthleteJob job = new AthleteJob(CoachSingleton.proxy(getContext().getSystem(), spec.jobId()),
                LearnerSingleton.proxy(getContext().getSystem(), spec.jobId()).narrow(), runner, delivery);
        for (int i = 1; i <= athletes; i++) {
            children.add(getContext().spawn(AthleteActor.create(job), "job" + generation + "-athlete-" + i));
        }
        getContext().getLog().info("job {}: {} athletes working", spec.jobId(), athletes);
        return this;
    }

    /** What went wrong, in words: a refusal's own message, else the failure as Java names it. */
    private static String reason(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof IllegalStateException || cause instanceof UncheckedIOException ? cause.getMessage() : cause.toString();
    }

    /** A model that is not on this node's disk yet, or tools not up yet, may be there soon: back off and retry. */
    private void retryLater() {
        timers.startSingleTimer(RetryJoin.INSTANCE, nextRetry);
        nextRetry = nextRetry.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : nextRetry.multipliedBy(2);
    }

    private void spawnIdleAthletes() {
        generation++;
        for (int i = 1; i <= athletes; i++) {
            children.add(getContext().spawn(AthleteActor.create(), "idle" + generation + "-athlete-" + i));
        }
    }

    private void stopChildren() {
        children.forEach(getContext()::stop);
        children.clear();
    }

    private void release() {
        if (resources != null) {
            EngineMetrics.get(getContext().getSystem()).forget();
            resources.close();
            resources = null;
        }
    }
}
