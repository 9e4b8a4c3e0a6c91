package dev.toolcoach.cluster.weights;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.pubsub.Topic;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterPart;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol.RequestLatestAdapter;
import dev.toolcoach.model.lora.AdapterWeights;

import java.time.Duration;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One per inference engine: subscribes to the adapter topic, reassembles each version's parts, verifies the
 * checksum and hands the adapter to {@code apply} (the engine's {@code setAdapter}, which swaps it in between
 * decode steps). Older versions are ignored. It asks the publisher for the latest adapter when it first sees
 * one (it may have started late), when a set of chunks is corrupt, and after every {@code catchUpInterval} in
 * which no part arrived: that covers a lost chunk (a stalled assembly) and a version broadcast before the topic
 * knew of this node. The publisher answers only when it has something newer, so an idle check costs one small
 * message.
 */
public final class AdapterReceiver {

    private record PublishersChanged(Set<ActorRef<AdapterPublisherProtocol.Command>> publishers) implements AdapterReceiverProtocol.Local {
    }

    private enum CatchUpTick implements AdapterReceiverProtocol.Local { INSTANCE }

    private final ActorContext<AdapterReceiverProtocol.Command> context;
    private final Consumer<AdapterWeights> apply;
    private final WeightsAssembler assembler = new WeightsAssembler();
    private Set<ActorRef<AdapterPublisherProtocol.Command>> publishers = Set.of();
    private int appliedVersion = -1;
    private boolean partsSinceTick;

    private AdapterReceiver(ActorContext<AdapterReceiverProtocol.Command> context, Consumer<AdapterWeights> apply) {
        this.context = context;
        this.apply = apply;
    }

    public static Behavior<AdapterReceiverProtocol.Command> create(Consumer<AdapterWeights> apply, Duration catchUpInterval) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> {
            ActorRef<Topic.Command<AdapterPart>> topic = context.spawn(AdapterTopic.behavior(), "adapter-topic");
            topic.tell(Topic.subscribe(context.getSelf().narrow()));
            ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class,
                    l -> new PublishersChanged(l.getServiceInstances(AdapterPublisher.SERVICE_KEY)));
            context.getSystem().receptionist().tell(Receptionist.subscribe(AdapterPublisher.SERVICE_KEY, listings));
            timers.startTimerWithFixedDelay(CatchUpTick.INSTANCE, catchUpInterval);
            return new AdapterReceiver(context, apply).behavior();
        }));
    }

    private Behavior<AdapterReceiverProtocol.Command> behavior() {
        return Behaviors.receive(AdapterReceiverProtocol.Command.class)
                .onMessage(AdapterPart.class, this::onPart)
                .onMessage(PublishersChanged.class, this::onPublishers)
                .onMessageEquals(CatchUpTick.INSTANCE, this::onTick)
                .build();
    }

    private Behavior<AdapterReceiverProtocol.Command> onPublishers(PublishersChanged changed) {
        boolean newcomer = !publishers.containsAll(changed.publishers());
        publishers = changed.publishers();
        if (newcomer) {
            requestLatest(); // we may have started after versions were broadcast, or the learner restarted
        }
        return Behaviors.same();
    }

    private Behavior<AdapterReceiverProtocol.Command> onPart(AdapterPart part) {
        partsSinceTick = true;
        WeightsAssembler.Outcome outcome = assembler.accept(part.chunk());
        if (outcome instanceof WeightsAssembler.Outcome.Complete done) {
            apply(done, part);
        } else if (outcome instanceof WeightsAssembler.Outcome.Corrupt corrupt) {
            context.getLog().warn("adapter version {} discarded: {}; asking for it again", corrupt.version(), corrupt.reason());
            requestLatest();
        } else if (outcome instanceof WeightsAssembler.Outcome.Ignored ignored) {
            context.getLog().debug("adapter part ignored: {}", ignored.reason());
        }
        return Behaviors.same();
    }

    private Behavior<AdapterReceiverProtocol.Command> onTick() {
        if (!partsSinceTick) {
            requestLatest();
        }
        partsSinceTick = false;
        return Behaviors.same();
    }

    private void apply(WeightsAssembler.Outcome.Complete done, AdapterPart part) {
        try {
            apply.accept(AdapterFlattening.unflatten(done.version(), part.layout(), done.adapter()));
            appliedVersion = done.version();
        } catch (IllegalArgumentException e) {
            context.getLog().error("adapter version {} rejected, keeping version {}: {}", done.version(), appliedVersion,
                    e.getMessage());
        }
    }

    private void requestLatest() {
        publishers.forEach(p -> p.tell(new RequestLatestAdapter(appliedVersion, context.getSelf())));
    }
}
