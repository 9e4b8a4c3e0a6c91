package dev.toolcoach.cluster.discovery;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs on the coach: subscribes to the Receptionist for athletes and for every tool suite the job
 * uses, keeps the current {@link ServiceDirectory}, and answers who is available.
 */
public final class ServiceRegistry extends AbstractBehavior<ServiceRegistry.Command> {

    public sealed interface Command {
    }

    /** Ask for the current directory. Local to the coach node, so it never needs a serializer. */
    public record GetDirectory(ActorRef<ServiceDirectory> replyTo) implements Command, NoSerializationVerificationNeeded {
    }

    /** Every subscription shares this one adapter: an actor keeps only one adapter per message class. */
    private record Listed(Receptionist.Listing listing) implements Command {
    }

    private final Map<ServiceKey<ToolServerProtocol.Command>, String> suitesByKey = new HashMap<>();
    private ServiceDirectory directory = ServiceDirectory.empty();

    public static Behavior<Command> create(List<String> toolSuites) {
        return Behaviors.setup(context -> new ServiceRegistry(context, toolSuites));
    }

    private ServiceRegistry(ActorContext<Command> context, List<String> toolSuites) {
        super(context);
        ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class, Listed::new);
        context.getSystem().receptionist().tell(Receptionist.subscribe(ServiceKeys.ATHLETES, listings));
        for (String suite : toolSuites) {
            ServiceKey<ToolServerProtocol.Command> key = ServiceKeys.toolSuite(suite);
            suitesByKey.put(key, suite);
            context.getSystem().receptionist().tell(Receptionist.subscribe(key, listings));
        }
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Listed.class, this::onListing)
                .onMessage(GetDirectory.class, this::onGet)
                .build();
    }

    private Behavior<Command> onListing(Listed listed) {
        Receptionist.Listing listing = listed.listing();
        if (listing.isForKey(ServiceKeys.ATHLETES)) {
            return update(directory.withAthletes(listing.getServiceInstances(ServiceKeys.ATHLETES)));
        }
        for (Map.Entry<ServiceKey<ToolServerProtocol.Command>, String> suite : suitesByKey.entrySet()) {
            if (listing.isForKey(suite.getKey())) {
                return update(directory.withToolSuite(suite.getValue(), listing.getServiceInstances(suite.getKey())));
            }
        }
        return this;
    }

    private Behavior<Command> update(ServiceDirectory next) {
        if (!next.equals(directory)) {
            getContext().getLog().info("Services available: {}", next.summary());
        }
        directory = next;
        return this;
    }

    private Behavior<Command> onGet(GetDirectory get) {
        get.replyTo().tell(directory);
        return this;
    }
}
