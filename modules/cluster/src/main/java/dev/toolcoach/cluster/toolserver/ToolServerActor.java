package dev.toolcoach.cluster.toolserver;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRefResolver;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.protocol.EchoProtocol.Echo;
import dev.toolcoach.cluster.protocol.EchoProtocol.EchoReply;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ExecuteToolCalls;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.GetToolSpecs;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ReleaseTrajectory;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolCallResults;
import dev.toolcoach.cluster.serialization.FrameBudget;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolSpecs;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.skills.ApprovedSkills;
import dev.toolcoach.trace.ToolResult;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The server of one tool suite on a tool node: a thin shell over the suite's {@link ToolExecutor}.
 * Registers under the suite's key so athletes find it, runs each turn's calls on the executor's pool
 * (never on the actor's thread) and answers when all of them are done, in call order, each call's answer
 * held back by the configured {@link AddedLatency} (none by default). Exports the
 * executor's figures to {@code /metrics}; stopping closes the executor and the suite's resources. With a skill folder,
 * approved composites over the suite join it while the server runs ({@link ApprovedSkills}, {@link ToolExecutor#replaceSuite}):
 * {@code GetToolSpecs} lists them from then on, so athletes that connect afterwards (the next job) offer them.
 */
public final class ToolServerActor extends AbstractBehavior<ToolServerProtocol.Command> {

    /** This actor's full address, so an echo tells which node answered. */
    private final String address;
    private final BuiltinSuites.Hosted hosted;
    private final ToolExecutor executor;
    private final AddedLatency addedLatency;
    private final FrameBudget frame;
    /** The approved skills over this suite, or null when the node has no skill folder. */
    private final ApprovedSkills skills;

    /** A server for the suite, owning it from now on: its resources are closed when the server stops. */
    public static Behavior<ToolServerProtocol.Command> create(BuiltinSuites.Hosted hosted, ExecutorSettings settings) {
        return create(hosted, settings, AddedLatency.NONE);
    }

    /** As {@link #create(BuiltinSuites.Hosted, ExecutorSettings)}, each call's answer held back by {@code addedLatency}. */
    public static Behavior<ToolServerProtocol.Command> create(BuiltinSuites.Hosted hosted, ExecutorSettings settings, AddedLatency addedLatency) {
        return Behaviors.setup(context -> new ToolServerActor(context, hosted, settings, addedLatency, null));
    }

    /**
     * A tool node's server: the host's executor limits and added latency, and, when the host names a skill folder, the
     * approved skills over the suite, registered as they are approved (the folder is re-read every poll interval).
     */
    public static Behavior<ToolServerProtocol.Command> create(BuiltinSuites.Hosted hosted, ToolHostSettings host) {
        ExecutorSettings executor = host.executor(hosted.suite().name());
        if (host.options().skills() == null) return create(hosted, executor, host.addedLatency());
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> {
            timers.startTimerWithFixedDelay(ReloadSkills.INSTANCE, host.skillsPollInterval());
            return new ToolServerActor(context, hosted, executor, host.addedLatency(),
                    new ApprovedSkills(hosted.suite(), host.options().skills()));
        }));
    }

    /** Time to re-read the skill folder (a timer of this node's own; never sent across nodes). */
    private enum ReloadSkills implements ToolServerProtocol.Local, NoSerializationVerificationNeeded {
        INSTANCE
    }

    private ToolServerActor(ActorContext<ToolServerProtocol.Command> context, BuiltinSuites.Hosted hosted, ExecutorSettings settings,
                            AddedLatency addedLatency, ApprovedSkills skills) {
        super(context);
        this.hosted = hosted;
        this.addedLatency = addedLatency;
        this.skills = skills;
        this.frame = FrameBudget.of(context.getSystem());
        this.executor = new ToolExecutor(skills == null ? hosted.suite() : skills.suite(), settings);
        if (skills != null && !skills.names().isEmpty()) {
            context.getLog().info("tool suite '{}': skills registered {}", suite(), skills.names());
        }
        address = ActorRefResolver.get(context.getSystem()).toSerializationFormat(context.getSelf());
        ToolServerMetrics.get(context.getSystem()).add(suite(), executor);
        context.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.toolSuite(suite()), context.getSelf()));
    }

    private String suite() {
        return hosted.suite().name();
    }

    @Override
    public Receive<ToolServerProtocol.Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(ExecuteToolCalls.class, this::onExecute)
                .onMessage(ReleaseTrajectory.class, this::onRelease)
                .onMessage(GetToolSpecs.class, this::onGetSpecs)
                .onMessage(Echo.class, this::onEcho)
                .onMessageEquals(ReloadSkills.INSTANCE, this::onReloadSkills)
                .onSignal(PostStop.class, signal -> onStop())
                .build();
    }

    private Behavior<ToolServerProtocol.Command> onExecute(ExecuteToolCalls request) {
        List<CompletableFuture<ToolResult>> calls = executor.execute(request.trajectoryId(), request.calls()).stream()
                .map(CompletionStage::toCompletableFuture).map(addedLatency::delay).toList();
        // each executor stage completes normally (failures are results), so allOf never fails
        // The reply goes straight from the completing stage (tell is thread-safe) rather than through this
        // actor's mailbox, so the UNAVAILABLE answers the executor gives while the server stops still arrive.
        // A turn's results too large for one frame are cut to fit (FrameFit) rather than dropped by Artery.
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenRun(() -> request.replyTo().tell(FrameFit.fit(
                new ToolCallResults(request.trajectoryId(), calls.stream().map(CompletableFuture::join).toList()), frame)));
        return this;
    }

    private Behavior<ToolServerProtocol.Command> onRelease(ReleaseTrajectory release) {
        executor.finishTrajectory(release.trajectoryId());
        return this;
    }

    private Behavior<ToolServerProtocol.Command> onGetSpecs(GetToolSpecs get) {
        get.replyTo().tell(new ToolSpecs(suite(), executor.specs()));
        return this;
    }

    private Behavior<ToolServerProtocol.Command> onEcho(Echo echo) {
        echo.replyTo().tell(new EchoReply(echo.payload(), address));
        return this;
    }

    private Behavior<ToolServerProtocol.Command> onReloadSkills() {
        try {
            skills.refresh().ifPresent(next -> {
                executor.replaceSuite(next);
                getContext().getLog().info("tool suite '{}': skills registered {}", suite(), skills.names());
            });
        } catch (IllegalArgumentException e) {
            // a definition being written or broken: keep serving what is registered, say why once per poll
            getContext().getLog().warn("tool suite '{}': skills not reloaded: {}", suite(), e.getMessage());
        }
        return this;
    }

    private Behavior<ToolServerProtocol.Command> onStop() {
        ToolServerMetrics.get(getContext().getSystem()).remove(suite());
        executor.close();
        HostedSuites.close(hosted);
        return this;
    }
}
