package dev.toolcoach.cluster.job;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.cluster.athlete.AthleteActor;
import dev.toolcoach.cluster.athlete.AthleteJob;
import dev.toolcoach.cluster.athlete.DeliverySettings;
import dev.toolcoach.cluster.athlete.RolloutRunner;
import dev.toolcoach.cluster.coach.CoachSingleton;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.learner.LearnerSingleton;
import dev.toolcoach.cluster.protocol.GetJob;
import dev.toolcoach.cluster.protocol.JobCommand;
import dev.toolcoach.cluster.protocol.JobSpec;
import dev.toolcoach.cluster.tools.ClusterToolSettings;
import dev.toolcoach.cluster.weights.AdapterReceiver;
import dev.toolcoach.policy.LocalPolicy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The athlete side of a node: idle athletes (registered, answering echoes) until a job is announced; then
 * the job's model is loaded into one inference engine shared by the node's athletes, an adapter receiver
 * keeps the engine on the learner's latest version, the tools are reached through the cluster, and the
 * athletes pull rollouts from the job's coach. When the job's announcer goes away the job's actors stop,
 * the engine is freed and the idle athletes come back. A node that joins mid-run finds the job the same way.
 */
public final class AthleteHost extends AbstractBehavior<AthleteHost.Command> {

    /** The host's own messages; none crosses the wire. */
    public interface Command extends NoSerializationVerificationNeeded {
    }

    private record AnnouncersChanged(Set<ActorRef<JobCommand>> announcers) implements Command {
    }

    private record SpecReceived(ActorRef<JobCommand> announcer, JobSpec spec, Throwable failure) implements Command {
    }

    private record Ready(ActorRef<JobCommand> announcer, JobSpec spec, JobResources resources, Throwable failure) implements Command {
    }

    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CATCH_UP = Duration.ofSeconds(2);

    private final int athletes;
    private final ClusterToolSettings toolSettings;
    private final DeliverySettings delivery;
    private final List<ActorRef<?>> children = new ArrayList<>();
    private Set<ActorRef<JobCommand>> announcers = Set.of();
    /** The announcer of the job being joined or run, null when idle. */
    private ActorRef<JobCommand> current;
    private JobResources resources;
    private int generation;

    public static Behavior<Command> create(int athletes, ClusterToolSettings toolSettings, DeliverySettings delivery) {
        return Behaviors.setup(context -> new AthleteHost(context, athletes, toolSettings, delivery));
    }

    private AthleteHost(ActorContext<Command> context, int athletes, ClusterToolSettings toolSettings, DeliverySettings delivery) {
        super(context);
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
            ActorRef<JobCommand> asked = announcers.iterator().next();
            current = asked;
            getContext().ask(JobSpec.class, asked, ASK_TIMEOUT, GetJob::new, (spec, failure) -> new SpecReceived(asked, spec, failure));
        }
        return this;
    }

    private Behavior<Command> onSpec(SpecReceived received) {
        if (received.announcer() != current) return this; // the job ended while we asked
        if (received.failure() != null) {
            getContext().getLog().warn("the job's announcer did not answer ({}); trying again on the next change", received.failure().toString());
            current = null;
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
            getContext().getLog().error("cannot join job {}: {}", ready.spec().jobId(), ready.failure().toString());
            if (ready.announcer() == current) current = null;
            return this;
        }
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
        EngineAdapterMetrics.get(getContext().getSystem()).watch(policy.engine());
        RolloutRunner runner = new RolloutRunner(policy.tokenizer(), policy.chatFormat(), policy.generator(), resources.tools(),
                spec.agent(), resources.rollouts(), policy.engine()::whenAdapterAtLeast, spec.maxPolicyLag(),
                Duration.ofMillis(spec.gateTimeoutMillis()));
        AthleteJob job = new AthleteJob(CoachSingleton.proxy(getContext().getSystem(), spec.jobId()),
                LearnerSingleton.proxy(getContext().getSystem(), spec.jobId()).narrow(), runner, delivery);
        for (int i = 1; i <= athletes; i++) {
            children.add(getContext().spawn(AthleteActor.create(job), "job" + generation + "-athlete-" + i));
        }
        getContext().getLog().info("job {}: {} athletes working", spec.jobId(), athletes);
        return this;
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
            EngineAdapterMetrics.get(getContext().getSystem()).forget();
            resources.close();
            resources = null;
        }
    }
}
