package dev.toolcoach.cluster.node;

import akka.actor.AbstractExtensionId;
import akka.actor.ActorSystem;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;

import java.util.concurrent.atomic.AtomicBoolean;

/** Whether this node's own actors have started; half of readiness (cluster membership is the other half). */
public final class NodeReadiness implements Extension {

    public static final Id ID = new Id();

    private final AtomicBoolean actorsStarted = new AtomicBoolean();

    public static NodeReadiness get(ActorSystem system) {
        return ID.get(system);
    }

    public void markActorsStarted() {
        actorsStarted.set(true);
    }

    public boolean actorsStarted() {
        return actorsStarted.get();
    }

    public static final class Id extends AbstractExtensionId<NodeReadiness> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public NodeReadiness createExtension(ExtendedActorSystem system) {
            return new NodeReadiness();
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
