package dev.toolcoach.cluster.weights;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.pubsub.Topic;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import akka.actor.typed.javadsl.Behaviors;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterPart;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol.RequestLatestAdapter;
import dev.toolcoach.model.lora.AdapterWeights;
import org.slf4j.Logger;

import java.util.List;

/**
 * The learner's side of the weights broadcast. Each new adapter version is cut into parts and published on a
 * {@link Topic}: the topic keeps track of which nodes have receivers (through the Receptionist) and sends each
 * part once per subscribed topic instance (one per engine node), so the publisher holds no list of engines and
 * node churn needs no code here. Parts lost to a node that was joining or unreachable are made good by
 * {@link RequestLatestAdapter}, answered to that engine only; the publisher is found through the Receptionist
 * under {@link #SERVICE_KEY}.
 */
public final class AdapterPublisher {

    public static final ServiceKey<AdapterPublisherProtocol.Command> SERVICE_KEY =
            ServiceKey.create(AdapterPublisherProtocol.Command.class, "toolcoach-adapter-publisher");

    /** A new adapter version from the learner on the same node (never crosses the network). */
    public record Publish(AdapterWeights weights) implements AdapterPublisherProtocol.Local, NoSerializationVerificationNeeded {
    }

    /** The job is over: the publisher deregisters and stops, so engines never catch up from an ended job. */
    public enum Stop implements AdapterPublisherProtocol.Local, NoSerializationVerificationNeeded { INSTANCE }

    private AdapterPublisher() {
    }

    public static Behavior<AdapterPublisherProtocol.Command> create(int maxChunkBytes) {
        return Behaviors.setup(context -> {
            context.getSystem().receptionist().tell(Receptionist.register(SERVICE_KEY, context.getSelf()));
            ActorRef<Topic.Command<AdapterPart>> topic = context.spawn(AdapterTopic.behavior(), "adapter-topic");
            AdapterPublication publication = new AdapterPublication(maxChunkBytes);
            return Behaviors.receive(AdapterPublisherProtocol.Command.class)
                    .onMessage(Publish.class, p -> {
                        publish(publication, p.weights(), topic, context.getLog());
                        return Behaviors.same();
                    })
                    .onMessage(RequestLatestAdapter.class, r -> {
                        List<AdapterPart> parts = publication.latestSince(r.sinceVersion());
                        parts.forEach(r.replyTo()::tell);
                        return Behaviors.same();
                    })
                    .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
                    .build();
        });
    }

    private static void publish(AdapterPublication publication, AdapterWeights weights,
                                ActorRef<Topic.Command<AdapterPart>> topic, Logger log) {
        try {
            publication.publish(weights).forEach(part -> topic.tell(Topic.publish(part)));
        } catch (IllegalArgumentException e) {
            log.error("adapter not published: {}", e.getMessage());
        }
    }
}
