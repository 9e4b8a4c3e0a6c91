package dev.toolcoach.cluster.toolserver;

import akka.actor.typed.ActorRefResolver;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.protocol.Echo;
import dev.toolcoach.cluster.protocol.EchoReply;
import dev.toolcoach.cluster.protocol.ToolServerCommand;

/**
 * The server of one tool suite on a tool node: registers under the suite's key so athletes can find
 * it, and answers {@link Echo}. Tool execution requests extend its command set.
 */
public final class ToolServerActor extends AbstractBehavior<ToolServerCommand> {

    /** This actor's full address, so an echo tells which node answered. */
    private final String address;

    public static Behavior<ToolServerCommand> create(String suite) {
        return Behaviors.setup(context -> new ToolServerActor(context, suite));
    }

    private ToolServerActor(ActorContext<ToolServerCommand> context, String suite) {
        super(context);
        address = ActorRefResolver.get(context.getSystem()).toSerializationFormat(context.getSelf());
        context.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.toolSuite(suite), context.getSelf()));
    }

    @Override
    public Receive<ToolServerCommand> createReceive() {
        return newReceiveBuilder().onMessage(Echo.class, this::onEcho).build();
    }

    private Behavior<ToolServerCommand> onEcho(Echo echo) {
        echo.replyTo().tell(new EchoReply(echo.payload(), address));
        return this;
    }
}
