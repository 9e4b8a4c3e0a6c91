package dev.toolcoach.cluster.athlete;

import akka.actor.typed.ActorRefResolver;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.protocol.AthleteCommand;
import dev.toolcoach.cluster.protocol.Echo;
import dev.toolcoach.cluster.protocol.EchoReply;

/**
 * One athlete: registers under {@link ServiceKeys#ATHLETES} so the coach can find it, and answers
 * {@link Echo}. The rollout protocol (work pulling, agent loop) extends its command set.
 */
public final class AthleteActor extends AbstractBehavior<AthleteCommand> {

    /** This actor's full address, so an echo tells which node answered. */
    private final String address;

    public static Behavior<AthleteCommand> create() {
        return Behaviors.setup(AthleteActor::new);
    }

    private AthleteActor(ActorContext<AthleteCommand> context) {
        super(context);
        address = ActorRefResolver.get(context.getSystem()).toSerializationFormat(context.getSelf());
        context.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.ATHLETES, context.getSelf()));
    }

    @Override
    public Receive<AthleteCommand> createReceive() {
        return newReceiveBuilder().onMessage(Echo.class, this::onEcho).build();
    }

    private Behavior<AthleteCommand> onEcho(Echo echo) {
        echo.replyTo().tell(new EchoReply(echo.payload(), address));
        return this;
    }
}
